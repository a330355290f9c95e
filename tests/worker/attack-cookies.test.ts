/**
 * A bad cookie is no cookie (decision 164): every cookie the site reads, sent with garbage,
 * oversized, badly encoded or wrongly signed values, gets the page a visitor without it would get,
 * never a 5xx. (Remix 2's signature check threw on a value that is not base64: `sid=x` answered 500.)
 */
import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { get, sessionCookie } from "./fixtures";
import { memberWithPassword, PASSWORD, send } from "./accounts-support";

/** Every cookie the server reads. */
const COOKIES = ["sid", "dev", "auth_flow", "lng", "entry_ok", "paymentCountry", "trk", "dev_country"];

async function wronglySigned(name: string): Promise<string> {
  const { createCookie } = await import("@remix-run/cloudflare");
  const value = name === "dev" ? { id: "device-1", userId: "someone" } : "a-session-id";
  return (await createCookie(name, { secrets: ["not-the-site-secret"] }).serialize(value))
    .split(";")[0]!
    .split("=")
    .slice(1)
    .join("=");
}

async function badValues(name: string): Promise<string[]> {
  return [
    "x",
    "!!!",
    "abc.def",
    "a.b.c",
    "%",
    "%E0%A4%A",
    "%00",
    '"quoted"',
    "eyJ9.***",
    "=",
    "e30=.x",
    "a".repeat(5000),
    `${"QUFB".repeat(3000)}.${"QUFB".repeat(100)}`,
    await wronglySigned(name),
  ];
}

/** What a visitor sees: the status, where a redirect goes, and the page's h1 and title. */
async function seen(res: Response) {
  const html = await res.text();
  const strip = (s: string | undefined) => (s ?? "").replace(/<[^>]+>/g, "").trim();
  return {
    status: res.status,
    location: res.headers.get("Location"),
    title: strip(/<title>([\s\S]*?)<\/title>/.exec(html)?.[1]),
    h1: strip(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]),
  };
}

const PAGES = ["/login", "/", "/signup", "/credits", "/members", "/pages/terms"];

afterEach(() => vi.restoreAllMocks());

// Many requests per test: a bound for a busy machine, not a speed requirement.
describe("a malformed cookie is treated as absent", { timeout: 120_000 }, () => {
  for (const name of COOKIES) {
    it(`${name}: garbage, oversized and wrongly signed values get a visitor's pages`, async () => {
      const failed = vi.spyOn(console, "error").mockImplementation(() => {});
      for (const path of PAGES) {
        const without = await seen(await get(path));
        for (const value of await badValues(name)) {
          const res = await get(path, { cookie: `${name}=${value}` });
          expect(res.status, `${path} with ${name}=${value.slice(0, 40)}`).toBeLessThan(500);
          expect(await seen(res), `${path} with ${name}=${value.slice(0, 40)}`).toEqual(without);
        }
      }
      expect(failed).not.toHaveBeenCalled();
    });
  }

  for (const name of ["dev", "auth_flow", "sid"]) {
    it(`the login post with a bad ${name} cookie logs the member in as without it`, async () => {
      const member = await memberWithPassword();
      for (const value of await badValues(name)) {
        const res = await send("/login", { email: member.email, password: PASSWORD }, { cookie: `${name}=${value}` });
        expect(res.status, `${name}=${value.slice(0, 40)}`).toBe(302);
        expect(res.headers.get("Location")).toBe("/members");
      }
    });
  }

  for (const name of ["dev", "lng", "paymentCountry", "trk", "dev_country", "entry_ok", "auth_flow"]) {
    it(`a member's bad ${name} cookie leaves their pages as without it`, async () => {
      const member = await memberWithPassword();
      const sid = await sessionCookie(member.id);
      for (const path of ["/members", "/credits", "/settings"]) {
        const without = await seen(await get(path, { cookie: sid }));
        expect(without.status).toBe(200);
        for (const value of await badValues(name)) {
          const res = await get(path, { cookie: `${sid}; ${name}=${value}` });
          expect(await seen(res), `${path} with ${name}=${value.slice(0, 40)}`).toEqual(without);
        }
      }
    });
  }

  it("the member socket answers a bad session cookie as a missing one (403)", async () => {
    for (const value of await badValues("sid")) {
      const res = await SELF.fetch("http://localhost/ws/member", {
        headers: { Upgrade: "websocket", Cookie: `sid=${value}` },
      });
      expect(res.status).toBe(403);
      await res.text();
    }
  });

  it("a whole Cookie header of junk is no cookie at all", async () => {
    const without = await seen(await get("/login"));
    for (const header of [";;;", "=x", "sid", "sid=x; sid=y", "a=1;".repeat(2000), `sid=${"%".repeat(100)}`]) {
      expect(await seen(await get("/login", { headers: { Cookie: header } })), header.slice(0, 40)).toEqual(without);
    }
    expect(env.SESSION_SECRET).toBeTruthy();
  });
});

describe("refused requests are logged with their status and reason", () => {
  it("a post to a page without an action is a warning with 405 and the reason, not an error of '[object Object]'", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    for (const path of ["/pages/terms", "/manifest.webmanifest"]) {
      const res = await send(path, { a: "1" }, { headers: { "cf-ray": `ray-refused-${path}` } });
      expect(res.status).toBe(405);
      await res.text();
      const lines = warnings.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, unknown>);
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: "warn",
          event: "request.refused",
          requestId: `ray-refused-${path}`,
          path,
          status: 405,
          reason: expect.stringContaining("did not provide an `action`"),
        }),
      );
    }
    expect(errors).not.toHaveBeenCalled();
  });
});
