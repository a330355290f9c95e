import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "../../app/lib/security.server";
import { shouldShowSiteEntry } from "../../app/lib/site-entry";
import { cleanPhone, termsVersionDate } from "../../app/models/brand.server";
import { safeRedirect } from "../../app/lib/request.server";
import { hashPassword, iterationsOf, PASSWORD_ITERATIONS, verifyPassword } from "../../app/lib/password";

const base = { enabled: true, countries: ["NL", "DE", "FR"], loggedIn: false, skipped: false };

describe("site-entry warning rules", () => {
  it("shows in the default layout for any allowed country", () => {
    expect(shouldShowSiteEntry({ ...base, country: "FR", layout: "default" })).toBe(true);
    expect(shouldShowSiteEntry({ ...base, country: "nl", layout: "default" })).toBe(true);
  });
  it("never shows outside the allowed countries", () => {
    expect(shouldShowSiteEntry({ ...base, country: "US", layout: "default" })).toBe(false);
  });
  it("limits the chat, lander and empty layouts to NL and DE", () => {
    for (const layout of ["chat", "lander", "empty"] as const) {
      expect(shouldShowSiteEntry({ ...base, country: "NL", layout })).toBe(true);
      expect(shouldShowSiteEntry({ ...base, country: "DE", layout })).toBe(true);
      expect(shouldShowSiteEntry({ ...base, country: "FR", layout })).toBe(false);
    }
  });
  it("is off for members, after skipping, and when the brand disables it", () => {
    expect(shouldShowSiteEntry({ ...base, country: "NL", layout: "default", loggedIn: true })).toBe(false);
    expect(shouldShowSiteEntry({ ...base, country: "NL", layout: "default", skipped: true })).toBe(false);
    expect(shouldShowSiteEntry({ ...base, country: "NL", layout: "default", enabled: false })).toBe(false);
  });
});

describe("brand rules", () => {
  it("dates the terms 2023-12-01T12:00:00Z unless the company was added later", () => {
    expect(termsVersionDate({ added: "2022-01-01T00:00:00Z" })).toBe("2023-12-01T12:00:00.000Z");
    expect(termsVersionDate({ added: "2024-02-15T00:00:00Z" })).toBe("2024-02-15T00:00:00.000Z");
  });
  it("cleans the support phone of dashes and spaces", () => {
    expect(cleanPhone("+49 30 - 555 012 34")).toBe("+493055501234");
  });
});

describe("redirect targets", () => {
  it("keeps same-site paths and refuses everything else", () => {
    expect(safeRedirect("/members?x=1")).toBe("/members?x=1");
    expect(safeRedirect("//evil.example")).toBe("/");
    expect(safeRedirect("https://evil.example")).toBe("/");
    expect(safeRedirect(null, "/login")).toBe("/login");
    // Decision 080: what browsers strip or rewrite before following a Location.
    for (const evil of [
      "/\t/evil.test",
      "/\r/evil.test",
      "/\n/evil.test",
      "/\\evil.test",
      "/.//evil.test",
      "/..//evil.test",
      "javascript:alert(1)",
    ]) {
      expect(safeRedirect(evil)).toBe("/");
    }
    expect(safeRedirect("/%2F/evil.test")).toBe("/%2F/evil.test");
    expect(safeRedirect("/a/../members#x")).toBe("/members#x");
  });
});

describe("password hashing", () => {
  it("uses PBKDF2 with exactly 100,000 iterations (the Workers production cap)", async () => {
    expect(PASSWORD_ITERATIONS).toBe(100_000);
    const hash = await hashPassword("Demo-pass-2026", "pepper");
    expect(iterationsOf(hash)).toBe(100_000);
    expect(await verifyPassword("Demo-pass-2026", hash, "pepper")).toBe(true);
    expect(await verifyPassword("Demo-pass-2027", hash, "pepper")).toBe(false);
    expect(await verifyPassword("Demo-pass-2026", hash, "other-pepper")).toBe(false);
  });
});

describe("content security policy", () => {
  it("lets a pay form without JavaScript follow its redirect to Mollie's hosted checkout, and no other site", () => {
    const formAction = contentSecurityPolicy("n", false)
      .split("; ")
      .find((d) => d.startsWith("form-action"));
    expect(formAction).toBe("form-action 'self' https://www.mollie.com");
  });
});
