import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { get, post, sessionCookie } from "./fixtures";
import { member } from "./members-support";

beforeAll(async () => {
  await env.DB.batch([
    env.DB.prepare(
      `INSERT OR IGNORE INTO regions (country, code, name) VALUES ('NL', '07', 'North Holland'), ('NL', '09', 'Utrecht'), ('DE', '16', 'Berlin')`,
    ),
    env.DB.prepare(
      `INSERT INTO cities (name, country, region_code, lat, lon, population) VALUES
        ('Amsterdam', 'NL', '07', 52.374, 4.8897, 741636), ('Haarlem', 'NL', '07', 52.3808, 4.6368, 147590),
        ('Utrecht', 'NL', '09', 52.0908, 5.1222, 290529), ('Berlin', 'DE', '16', 52.5244, 13.4105, 3426354)`,
    ),
  ]);
});

const geocode = async (lat: number, lon: number, cookie?: string) => {
  const res = await get(`/api/geocode.php?lat=${lat}&lon=${lon}`, { cookie });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
};

describe("geocode", () => {
  it("answers the nearest city with its region, nothing more exact", async () => {
    const cookie = await sessionCookie((await member()).id);
    expect((await geocode(52.37, 4.9, cookie)).body).toEqual({
      country: "NL",
      region: "07",
      region_name: "North Holland",
      city: "Amsterdam",
    });
    expect((await geocode(52.39, 4.62, cookie)).body.city).toBe("Haarlem");
    expect((await geocode(52.1, 5.1, cookie)).body.city).toBe("Utrecht");
    // No city within the first box, found in a wider one.
    expect((await geocode(52.9, 13.0, cookie)).body.city).toBe("Berlin");
    expect((await geocode(0, -30, cookie)).status).toBe(404);
    expect((await geocode(200, 4, cookie)).status).toBe(400);
    expect((await geocode(52.37, 4.9)).status).toBe(403);
  });
});

describe("my profile", () => {
  it("saves every field and the interests; a typed city gets its position", async () => {
    const m = await member();
    const cookie = await sessionCookie(m.id);
    const form = new URLSearchParams({
      name: "Edited Eva",
      gender: "female",
      sexuality: "bi",
      date_of_birth: "1991-03-04",
      country: "NL",
      region: "09",
      city: "Utrecht",
      about_me: "Hello there",
      hair_colour: "red",
      eye_colour: "green",
      body_type: "curvy",
      relationship_status: "single",
      tattoos: "few",
      signup_reason: "flirt",
      lat: "",
      lon: "",
    });
    form.append("interests", "wine");
    form.append("interests", "sushi");
    form.append("interests", "not-an-interest");
    // The fixtures' post() takes an object (one value a key); interests need the repeated field.
    const full = await SELF.fetch("http://localhost/profile", {
      method: "POST",
      body: form,
      redirect: "manual",
      headers: {
        Host: "localhost",
        Origin: "http://localhost",
        Cookie: cookie,
        "Content-Type": "application/x-www-form-urlencoded",
      },
    });
    expect(full.status).toBe(302);
    const row = await env.DB.prepare("SELECT * FROM profiles WHERE user_id = ?1")
      .bind(m.id)
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({
      name: "Edited Eva",
      sexuality: "bi",
      date_of_birth: "1991-03-04",
      region: "09",
      city: "Utrecht",
      about_me: "Hello there",
      hair_colour: "red",
      eye_colour: "green",
      body_type: "curvy",
      relationship_status: "single",
      tattoos: "few",
      signup_reason: "flirt",
      lat: 52.0908,
      lon: 5.1222,
    });
    const interests = await env.DB.prepare(
      "SELECT interest_id FROM profile_interests WHERE user_id = ?1 ORDER BY interest_id",
    )
      .bind(m.id)
      .all();
    expect(interests.results.map((r) => r.interest_id)).toEqual(["sushi", "wine"]);
    const page = await (await get("/profile", { cookie })).text();
    expect(page).toContain('value="Edited Eva"');
    expect(page).toContain("Utrecht");
  });

  it("refuses bad input with the spec's messages and changes nothing", async () => {
    const m = await member({ name: "Stays Same", email: "stay@example.com" });
    const cookie = await sessionCookie(m.id);
    const base = {
      gender: "female",
      sexuality: "hetero",
      date_of_birth: "1990-01-01",
      country: "NL",
      region: "",
      city: "",
    };
    const cases: [Record<string, string>, string][] = [
      [{ ...base, name: "@atname" }, "Username may not start with @"],
      [{ ...base, name: "stay@example.com" }, "Username may not be the same as your e-mail address"],
      [{ ...base, name: "Valid", date_of_birth: "2020-01-01" }, "Enter your date of birth (18+)"],
      [{ ...base, name: "Valid", date_of_birth: "1990-13-45" }, "Invalid date of birth."],
      [{ ...base, name: "Valid", hair_colour: "purple" }, "Please check your input."],
    ];
    for (const [form, message] of cases) {
      const res = await post("/profile", form, { cookie });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(message);
    }
    expect(await env.DB.prepare("SELECT name FROM profiles WHERE user_id = ?1").bind(m.id).first("name")).toBe(
      "Stays Same",
    );
  });

  it("needs a login", async () => {
    expect((await get("/profile")).headers.get("Location")).toMatch(/^\/login/);
  });
});
