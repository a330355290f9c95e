import { describe, expect, it } from "vitest";
import { ageOn } from "../../app/models/landing.server";

describe("landing member ages", () => {
  it("counts full years, turning a year older on the birthday", () => {
    const today = new Date(Date.UTC(2026, 10, 21));
    expect(ageOn("1990-11-21", today)).toBe(36);
    expect(ageOn("1990-11-22", today)).toBe(35);
    expect(ageOn("1990-12-01", today)).toBe(35);
    expect(ageOn("1990-01-31", today)).toBe(36);
  });
});
