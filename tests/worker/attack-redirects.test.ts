/**
 * The attacker's view of redirect targets (decision 080): every place that redirects to a
 * client-supplied path must stay on this origin, whatever tabs, CR/LF, backslashes, encoded slashes
 * or schemes the value carries, and never answer 500.
 */
import { describe, expect, it } from "vitest";
import { sessionCookie } from "./fixtures";
import { PASSWORD, memberWithPassword, send } from "./accounts-support";

const EVIL = [
  "/\t/evil.test",
  "/\r/evil.test",
  "/\n/evil.test",
  "/\r\n/evil.test",
  "//evil.test",
  "/\\evil.test",
  "\\\\evil.test",
  "/\\/evil.test",
  "\t//evil.test",
  " //evil.test",
  "https://evil.test/",
  "http:evil.test",
  "javascript:alert(1)",
  "data:text/html,hi",
  "/%2F/evil.test",
  "/.//evil.test",
  "/..//evil.test",
  "%2F%2Fevil.test",
  "/%5Cevil.test",
  "/\u0000/evil.test",
  "/\u3000/evil.test",
];

/** Where a browser would go when following this Location from http://localhost/some/page. */
function landsOn(location: string | null): string {
  // Browsers strip tabs and newlines and treat backslashes as slashes before resolving.
  return new URL((location ?? "").replace(/[\t\n\r]/g, ""), "http://localhost/some/page").origin;
}

async function expectSafe(res: Response, value: string) {
  expect(res.status, `status for ${JSON.stringify(value)}`).toBeLessThan(500);
  const location = res.headers.get("Location");
  if (location !== null) {
    expect(location, `Location for ${JSON.stringify(value)}`).toMatch(/^\/(?![/\\])/);
    expect(location).not.toMatch(/[\u0000-\u001f\\]/);
    expect(landsOn(location)).toBe("http://localhost");
  }
}

describe("redirect targets stay on this origin", () => {
  it("after a real login", async () => {
    const m = await memberWithPassword();
    for (const value of EVIL) {
      await expectSafe(await send("/login", { email: m.email, password: PASSWORD, redirectTo: value }), value);
    }
  });

  it("/lang-config, /api/site-entry, /api/logout.php", async () => {
    const m = await memberWithPassword();
    for (const value of EVIL) {
      await expectSafe(await send("/lang-config", { lng: "de", redirectTo: value }), value);
      await expectSafe(await send("/api/site-entry", { redirectTo: value }), value);
      // A new session each time: logging out ends the one before.
      await expectSafe(
        await send("/api/logout.php", { redirectTo: value }, { cookie: await sessionCookie(m.id) }),
        value,
      );
    }
  });

  it("/match-finder (back) and /profile/photos (redirectTo)", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    for (const value of EVIL) {
      await expectSafe(await send("/match-finder", { targetId: "nobody", back: value }, { cookie }), value);
      await expectSafe(
        await send("/profile/photos", { intent: "main", photoId: "nope", redirectTo: value }, { cookie }),
        value,
      );
    }
  });

  it("keeps a harmless same-origin path with its query and hash", async () => {
    const res = await send("/lang-config", { lng: "de", redirectTo: "/members?page=2#top" });
    expect(res.headers.get("Location")).toBe("/members?page=2#top");
  });
});
