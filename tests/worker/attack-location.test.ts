/**
 * The attacker's view of location (decision 084): a member may set their own position and ask
 * the match finder whether a target falls inside the distance box around it. Bisecting the box edges
 * used to recover the target's stored position to the metre in about 45 requests. Positions are now
 * snapped to the city on write and searches run around the member's own stored city, so the attack
 * learns nothing finer than the target's city (which the profile shows anyway).
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { get, post, sessionCookie } from "./fixtures";
import { member } from "./members-support";

const UTRECHT = { lat: 52.0908, lon: 5.1222 };
beforeAll(async () => {
  await env.DB.batch([
    env.DB.prepare(`INSERT OR IGNORE INTO regions (country, code, name) VALUES ('NL', '09', 'Utrecht')`),
    // Many towns close together, as in the real table: the attacker can stand in any of them.
    env.DB.prepare(
      `INSERT INTO cities (name, country, region_code, lat, lon, population) VALUES
        ('Utrecht', 'NL', '09', ${UTRECHT.lat}, ${UTRECHT.lon}, 290529), ('Zeist', 'NL', '09', 52.09, 5.2333, 60000),
        ('Maarssen', 'NL', '09', 52.1350, 5.0414, 40000), ('Nieuwegein', 'NL', '09', 52.0292, 5.0806, 60000),
        ('Houten', 'NL', '09', 52.0283, 5.1681, 50000), ('Bilthoven', 'NL', '09', 52.1283, 5.2042, 20000),
        ('Amersfoort', 'NL', '09', 52.155, 5.3875, 150000), ('Woerden', 'NL', '09', 52.085, 4.8833, 50000),
        ('Hilversum', 'NL', '09', 52.2233, 5.1764, 90000), ('IJsselstein', 'NL', '09', 52.02, 5.0431, 34000)`,
    ),
  ]);
});

const base = {
  gender: "female",
  sexuality: "hetero",
  date_of_birth: "1990-01-01",
  country: "NL",
  region: "",
  city: "",
  about_me: "",
  hair_colour: "",
  eye_colour: "",
  body_type: "",
  relationship_status: "",
  tattoos: "",
  signup_reason: "",
};
const positionOf = (id: string) =>
  env.DB.prepare("SELECT lat, lon FROM profiles WHERE user_id = ?1").bind(id).first<{ lat: number; lon: number }>();

function km(a: { lat: number; lon: number }, b: { lat: number; lon: number }) {
  const r = (d: number) => (d * Math.PI) / 180;
  const x = r(b.lon - a.lon) * Math.cos(r((a.lat + b.lat) / 2));
  return Math.hypot(x, r(b.lat - a.lat)) * 6371;
}

describe("location privacy", () => {
  it("a browser position is stored as its nearest city, never finer", async () => {
    const m = await member({ name: "Placed" });
    const cookie = await sessionCookie(m.id);
    const res = await post("/profile", { ...base, name: "Placed", lat: "52.11731", lon: "5.09123" }, { cookie });
    expect(res.status).toBe(302);
    expect(await positionOf(m.id)).toEqual(UTRECHT);
    // Far from any town: a coarse grid, not the exact point.
    await post("/profile", { ...base, name: "Placed", lat: "63.456789", lon: "-20.123456" }, { cookie });
    expect(await positionOf(m.id)).toEqual({ lat: 63.5, lon: -20.1 });
  });

  it("repeating the bisection attack learns nothing closer than the target's city", async () => {
    // The target stands 3.5 km from Utrecht's centre, as her browser reported it.
    const truth = { lat: 52.1173, lon: 5.0912 };
    const target = await member({
      name: "Target",
      gender: "female",
      sexuality: "hetero",
      country: "NL",
      dateOfBirth: "1991-06-01",
    });
    expect(
      (
        await post(
          "/profile",
          { ...base, name: "Target", lat: String(truth.lat), lon: String(truth.lon) },
          { cookie: await sessionCookie(target.id) },
        )
      ).status,
    ).toBe(302);

    const attacker = await member({
      name: "Mallory",
      gender: "male",
      sexuality: "hetero",
      country: "NL",
      dateOfBirth: "1990-06-01",
    });
    const cookie = await sessionCookie(attacker.id);
    let requests = 0;
    const inBox = async (lat: number, lon: number) => {
      requests += 2;
      await post(
        "/profile",
        { ...base, gender: "male", name: "Mallory", lat: String(lat), lon: String(lon) },
        { cookie },
      );
      const page = await (await get("/match-finder?distance=10&min_age=18&max_age=99", { cookie })).text();
      return page.includes(`/members/${target.id}`);
    };
    // Find the north edge of the box (attacker latitude where the target drops out), then the east one.
    const dLat = 10 / 111;
    const edge = async (axis: "lat" | "lon", from: number, other: number, step: number) => {
      let lo = from,
        hi = from + step;
      const at = (v: number) => (axis === "lat" ? inBox(v, other) : inBox(other, v));
      if (!(await at(lo))) return null;
      for (let i = 0; i < 22; i++) {
        const mid = (lo + hi) / 2;
        if (await at(mid)) lo = mid;
        else hi = mid;
      }
      return lo;
    };
    const northEdge = await edge("lat", truth.lat, truth.lon, 0.3);
    const dLon = 10 / (111 * Math.cos((truth.lat * Math.PI) / 180));
    const eastEdge = await edge("lon", truth.lon, truth.lat, 0.3);
    expect(requests).toBeGreaterThan(40);
    if (northEdge !== null && eastEdge !== null) {
      const estimate = { lat: northEdge - dLat, lon: eastEdge - dLon };
      // Never closer than the city: at best the attack finds Utrecht's centre, never her doorstep.
      expect(km(estimate, truth)).toBeGreaterThan(1);
    }
    const stored = (await positionOf(target.id))!;
    expect(km(stored, truth)).toBeGreaterThan(2); // stored as Utrecht, not where she stood
  });

  it("the data migration snaps what was stored before: to the city, or to the grid", async () => {
    const inCity = await member({ name: "Old", city: "Utrecht", lat: 52.11731, lon: 5.09123 });
    const nowhere = await member({ name: "Older", city: "Atlantis", lat: 52.46789, lon: 4.51234 });
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.includes("snap_positions_to_city"))!;
    for (const query of migration.queries) await env.DB.prepare(query).run();
    expect(await positionOf(inCity.id)).toEqual(UTRECHT);
    expect(await positionOf(nowhere.id)).toEqual({ lat: 52.5, lon: 4.5 });
  });

  it("searches run around the member's own stored city, and what the finder shows has no coordinates", async () => {
    const m = await member({ name: "Seeker", gender: "male", lat: 52.11731, lon: 5.09123 });
    const page = await (await get("/match-finder?distance=10", { cookie: await sessionCookie(m.id) })).text();
    expect(page).not.toMatch(/52\.11731|5\.09123/);
  });
});
