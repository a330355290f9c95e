import { describe, expect, it } from "vitest";
import { formatDate, isStaticSlug } from "~/models/pages.server";
import { isLanderKind } from "~/models/landers.server";

describe("tokens, slugs and lander kinds", () => {
  it("knows the static pages and lander kinds of the spec", () => {
    expect(isStaticSlug("return-policy")).toBe(true);
    expect(isStaticSlug("complaints")).toBe(false);
    // No US record-keeping statement (decision 239).
    expect(isStaticSlug("compliance")).toBe(false);
    expect(isLanderKind("tinderswipe")).toBe(true);
    expect(isLanderKind("transitionsvideolanding")).toBe(true);
    expect(isLanderKind("nope")).toBe(false);
  });
});

describe("formatDate", () => {
  it("formats in the page language, in UTC", () => {
    expect(formatDate("de", "2024-02-15T00:00:00Z")).toBe("15. Februar 2024");
    expect(formatDate("en", "2023-12-01T12:00:00Z")).toBe("December 1, 2023");
  });
});
