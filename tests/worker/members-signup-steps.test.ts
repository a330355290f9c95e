import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { get, post, sessionCookie } from "./fixtures";
import { member } from "./members-support";

const STEPS = ["message", "photo", "location", "personal", "about", "push", "confirm"];

describe("after sign-up steps", () => {
  it("renders every step without JavaScript, each with a way on", async () => {
    const cookie = await sessionCookie((await member({ status: "not_confirmed" })).id);
    for (const [i, step] of STEPS.entries()) {
      const res = await get(`/complete-signup?step=${step}`, { cookie });
      expect(res.status).toBe(200);
      const body = await res.text();
      expect(body).toContain(`Step ${i + 1} of 7`);
      const next = i + 1 < STEPS.length ? `/complete-signup?step=${STEPS[i + 1]}` : "/members";
      expect(body).toContain(`href="${next}"`);
    }
    expect(await (await get("/complete-signup?step=confirm", { cookie })).text()).toContain("We sent you an e-mail");
  });

  it("a step does not repeat the alert asking for what the step asks (decision 130)", async () => {
    const m = await member({ status: "not_confirmed" });
    await env.DB.prepare("UPDATE profiles SET status = 'disabled' WHERE user_id = ?1").bind(m.id).run();
    const cookie = await sessionCookie(m.id);
    const page = async (step: string) => (await get(`/complete-signup?step=${step}`, { cookie })).text();
    expect(await page("about")).toContain('data-testid="activation-reminder"');
    expect(await page("confirm")).not.toContain('data-testid="activation-reminder"');
  });

  it("saves location, personal info and about me, and moves on", async () => {
    const m = await member();
    const cookie = await sessionCookie(m.id);
    // Only a known region of the chosen country is accepted (decision 082).
    await env.DB.prepare("INSERT OR IGNORE INTO regions (country, code, name) VALUES ('DE', '16', 'Berlin')").run();
    const loc = await post(
      "/complete-signup?step=location",
      { country: "DE", region: "16", city: "Berlin", lat: "", lon: "" },
      { cookie },
    );
    expect(loc.headers.get("Location")).toBe("/complete-signup?step=personal");
    const personal = await post(
      "/complete-signup?step=personal",
      {
        hair_colour: "blond",
        eye_colour: "",
        body_type: "slim",
        relationship_status: "",
        tattoos: "",
        signup_reason: "chat",
      },
      { cookie },
    );
    expect(personal.headers.get("Location")).toBe("/complete-signup?step=about");
    await post("/complete-signup?step=about", { about_me: "Hi, I'm new", interests: "tea" }, { cookie });
    const row = await env.DB.prepare(
      "SELECT country, city, hair_colour, eye_colour, body_type, signup_reason, about_me FROM profiles WHERE user_id = ?1",
    )
      .bind(m.id)
      .first();
    expect(row).toEqual({
      country: "DE",
      city: "Berlin",
      hair_colour: "blond",
      eye_colour: null,
      body_type: "slim",
      signup_reason: "chat",
      about_me: "Hi, I'm new",
    });
    expect(
      await env.DB.prepare("SELECT interest_id FROM profile_interests WHERE user_id = ?1")
        .bind(m.id)
        .first("interest_id"),
    ).toBe("tea");
    expect((await post("/complete-signup?step=personal", { hair_colour: "purple" }, { cookie })).status).toBe(400);
  });

  it("shows matches to like after sign-up", async () => {
    const me = await member({ gender: "male", country: "PL" });
    const cookie = await sessionCookie(me.id);
    const her = await member({ name: "Signup Match", country: "PL" });
    expect(await (await get("/signup-matches", { cookie })).text()).toContain("Signup Match");
    await post("/signup-matches", { targetId: her.id }, { cookie });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM likes WHERE liker_id = ?1").bind(me.id).first("n")).toBe(1);
  });
});
