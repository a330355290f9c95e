import { describe, expect, it } from "vitest";
import { ageOn, latestBirthDate } from "~/lib/dates";

describe("ageOn (profiles, landing, finder and sign-up all use it)", () => {
  it("counts full years, turning a year older on the birthday (UTC)", () => {
    const today = new Date(Date.UTC(2026, 10, 21));
    expect(ageOn("1990-11-21", today)).toBe(36);
    expect(ageOn("1990-11-22", today)).toBe(35);
    expect(ageOn("1990-12-01", today)).toBe(35);
    expect(ageOn("1990-01-31", today)).toBe(36);
    expect(ageOn("1990-12-31", new Date("2026-01-01T12:00:00Z"))).toBe(35);
  });
});

describe("latestBirthDate (every sign-up form's date limit)", () => {
  it("is the latest date of birth that is old enough today", () => {
    expect(latestBirthDate(18, new Date("2026-11-21T09:00:00Z"))).toBe("2008-11-21");
    expect(ageOn(latestBirthDate(18, new Date("2026-11-21T09:00:00Z")), new Date("2026-11-21T09:00:00Z"))).toBe(18);
  });
});
