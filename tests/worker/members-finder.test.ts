import { describe, expect, it } from "vitest";
import { get, post, sessionCookie } from "./fixtures";
import { dobForAge, member } from "./members-support";
import { compatible } from "../../app/models/finder.server";

describe("compatibility both ways", () => {
  it("matches gender and sexuality in both directions", () => {
    const m = (gender: "male" | "female", sexuality: string) => ({ gender, sexuality });
    expect(compatible(m("male", "hetero"), m("female", "hetero"))).toBe(true);
    expect(compatible(m("male", "hetero"), m("female", "lesbian"))).toBe(false);
    expect(compatible(m("male", "gay"), m("male", "gay"))).toBe(true);
    expect(compatible(m("male", "gay"), m("male", "hetero"))).toBe(false);
    expect(compatible(m("female", "bi"), m("female", "lesbian"))).toBe(true);
    expect(compatible(m("female", "bi"), m("male", "gay"))).toBe(false);
    expect(compatible(m("male", "bi"), m("female", "bi"))).toBe(true);
  });
});

describe("match finder", () => {
  it("lists compatible members in age range and distance, most shared interests first, and likes", async () => {
    const C = "BE";
    const me = await member({
      gender: "male",
      country: C,
      dateOfBirth: dobForAge(40),
      lat: 50.85,
      lon: 4.35,
      interests: ["wine", "hiking", "music"],
    });
    const cookie = await sessionCookie(me.id);
    const near = { country: C, lat: 50.9, lon: 4.4, dateOfBirth: dobForAge(38) };
    const two = await member({ ...near, name: "Finder Two", interests: ["wine", "hiking"] });
    await member({ ...near, name: "Finder One", interests: ["music"] });
    await member({ ...near, name: "Finder Lesbian", sexuality: "lesbian", interests: ["wine", "hiking", "music"] });
    await member({ ...near, name: "Finder Man", gender: "male" });
    await member({ ...near, name: "Finder Old", dateOfBirth: dobForAge(70) });
    await member({ country: C, name: "Finder Far", lat: 51.2, lon: 2.9, dateOfBirth: dobForAge(38) }); // Ostend, ~110 km
    const page = await (await get("/match-finder?distance=50", { cookie })).text();
    expect(page).toContain("Finder Two");
    expect(page).toContain("Finder One");
    expect(page.indexOf("Finder Two")).toBeLessThan(page.indexOf("Finder One"));
    expect(page).toContain("2 shared interests");
    for (const n of ["Finder Lesbian", "Finder Man", "Finder Old", "Finder Far"]) expect(page).not.toContain(n);
    expect(await (await get("/match-finder?distance=250", { cookie })).text()).toContain("Finder Far");
    await post("/match-finder", { targetId: two.id }, { cookie });
    expect(await (await get("/match-finder?distance=50", { cookie })).text()).not.toContain("Finder Two");
    expect(await (await get(`/members/${two.id}`, { cookie })).text()).toContain("Liked");
  });
});
