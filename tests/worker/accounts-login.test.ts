import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../app/entry.worker";
import type { Env } from "../../app/lib/env";
import { describe, expect, it } from "vitest";
import {
  LOGIN_ACCOUNT_MAX_ATTEMPTS,
  LOGIN_ADDRESSES_PER_CLIENT,
  LOGIN_BLOCK_MINUTES,
  LOGIN_MAX_ATTEMPTS,
  withinRateLimit,
} from "../../app/models/accounts/login.server";
import { get, sessionCookie } from "./fixtures";
import { PASSWORD, cookiesOf, memberWithPassword, pageText, send } from "./accounts-support";
import { clockStopped } from "./clock";

/** A client address of its own for one test. */
const ip = () => `10.99.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;

/**
 * A fixed-window rate limiter like the RATE_LIMITER binding ("limit" per "period" seconds), on a
 * clock the test moves: what it allows never depends on how fast the machine is.
 */
function windowLimiter(limit: number, period: number) {
  let now = 0;
  const counts = new Map<string, number>();
  return {
    async limit({ key }: { key: string }) {
      const k = `${key}@${Math.floor(now / period)}`;
      counts.set(k, (counts.get(k) ?? 0) + 1);
      return { success: counts.get(k)! <= limit };
    },
    advance(seconds: number) {
      now += seconds;
    },
    keys: () => [...new Set([...counts.keys()].map((k) => k.slice(0, k.lastIndexOf("@"))))],
  };
}

/** A login form post through the Worker with bindings of the test's choosing. */
async function throughWorker(
  bindings: Env,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string>,
) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://localhost${path}`, {
      method: "POST",
      body: new URLSearchParams(form),
      redirect: "manual",
      headers: {
        Host: "localhost",
        Origin: "http://localhost",
        "Content-Type": "application/x-www-form-urlencoded",
        ...headers,
      },
    }),
    bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

const sessionsOf = async (id: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?1").bind(id).first<{ n: number }>())!.n;

describe("login", () => {
  it("logs in with e-mail and password (any case), starting a 30-day server-side session", async () => {
    const m = await memberWithPassword({ language: "fr" });
    const res = await send("/login", {
      email: `  ${m.email.toUpperCase()} `,
      password: PASSWORD,
      redirectTo: "/settings",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/settings");
    const sid = res.headers.getSetCookie().find((c) => c.startsWith("sid="))!;
    expect(sid).toMatch(/Max-Age=2592000/);
    expect(sid).toMatch(/HttpOnly/);
    expect(sid).toMatch(/SameSite=Lax/);
    // The member's saved language comes along.
    expect(res.headers.getSetCookie().some((c) => c.startsWith("lng="))).toBe(true);
    expect(await sessionsOf(m.id)).toBe(1);
  });

  it("never redirects off-site after login", async () => {
    const m = await memberWithPassword();
    const res = await send("/login", { email: m.email, password: PASSWORD, redirectTo: "//evil.example" });
    expect(res.headers.get("Location")).toBe("/members");
  });

  it("says 'Login failed, please try again' for a wrong password or an unknown address", async () => {
    const m = await memberWithPassword();
    expect(await pageText(await send("/login", { email: m.email, password: "wrong-password" }))).toContain(
      "Login failed, please try again",
    );
    expect(await pageText(await send("/login", { email: "nobody@example.com", password: PASSWORD }))).toContain(
      "Login failed, please try again",
    );
  });

  it(`locks the address for the client that failed, at its ${LOGIN_MAX_ATTEMPTS}th wrong password, for ${LOGIN_BLOCK_MINUTES} minutes`, async () => {
    const m = await memberWithPassword();
    const attacker = { headers: { "CF-Connecting-IP": ip() } };
    for (let i = 1; i < LOGIN_MAX_ATTEMPTS; i++) {
      const text = await pageText(await send("/login", { email: m.email, password: `wrong-${i}` }, attacker));
      expect(text).toContain("Login failed, please try again");
      expect(text).not.toContain("Too many incorrect attempts");
    }
    const blocked = await pageText(await send("/login", { email: m.email, password: "wrong-last" }, attacker));
    expect(blocked).toContain(`Too many incorrect attempts, account blocked for ${LOGIN_BLOCK_MINUTES} min.`);
    // For that client even the right password is refused...
    const right = await send("/login", { email: m.email, password: PASSWORD }, attacker);
    expect(right.status).toBe(200);
    expect(await pageText(right)).toContain("Too many incorrect attempts, account blocked for");
    expect(await sessionsOf(m.id)).toBe(0);
    // ...while the member, from anywhere else, logs in (5 requests no longer lock anyone out).
    expect((await send("/login", { email: m.email, password: PASSWORD })).status).toBe(302);
    // Once the lock has passed, the client's right password works again.
    await env.DB.prepare("UPDATE counters SET expires_at = unixepoch() - 1 WHERE key LIKE 'login-fail:%' || ?1")
      .bind(m.id)
      .run();
    expect((await send("/login", { email: m.email, password: PASSWORD }, attacker)).status).toBe(302);
  });

  it("spares the member's known devices when many clients lock the address, and mails the member once (decision 088)", async () => {
    const m = await memberWithPassword();
    // The member logged in on this phone before: it carries the device cookie.
    const before = await send("/login", { email: m.email, password: PASSWORD });
    const dev = before.headers.getSetCookie().find((c) => c.startsWith("dev="))!;
    expect(dev).toMatch(/HttpOnly/);
    const device = dev.split(";")[0]!;
    // A distributed attack: one wrong password from each of LOGIN_ACCOUNT_MAX_ATTEMPTS clients.
    const results: string[] = [];
    for (let i = 0; i < LOGIN_ACCOUNT_MAX_ATTEMPTS; i++)
      results.push(await pageText(await send("/login", { email: m.email, password: `guess-${i}` })));
    expect(results.slice(0, -1).every((t) => t.includes("Login failed, please try again"))).toBe(true);
    expect(results.at(-1)).toContain(`Too many incorrect attempts, account blocked for ${LOGIN_BLOCK_MINUTES} min.`);
    // Unknown devices, right password or not, are refused for now.
    expect(await pageText(await send("/login", { email: m.email, password: PASSWORD }))).toContain(
      "Too many incorrect attempts",
    );
    // The member's phone logs in.
    const phone = await send("/login", { email: m.email, password: PASSWORD }, { cookie: device });
    expect(phone.status).toBe(302);
    // A forged device cookie, or the device cookie of another account, is an unknown device.
    expect(
      await pageText(
        await send(
          "/login",
          { email: m.email, password: PASSWORD },
          { cookie: `dev=${btoa(JSON.stringify({ id: "x", userId: m.id }))}` },
        ),
      ),
    ).toContain("Too many incorrect attempts");
    const other = await memberWithPassword();
    const otherDevice = cookiesOf(await send("/login", { email: other.email, password: PASSWORD }))
      .split("; ")
      .find((c) => c.startsWith("dev="))!;
    expect(
      await pageText(await send("/login", { email: m.email, password: PASSWORD }, { cookie: otherDevice })),
    ).toContain("Too many incorrect attempts");
    // The member is told, once, in their language.
    const mails = await env.DB.prepare('SELECT subject, text FROM mail_outbox WHERE "to" = ?1')
      .bind(m.email)
      .all<{ subject: string; text: string }>();
    expect(mails.results).toHaveLength(1);
    expect(mails.results[0]!.subject).toContain("Login attempts blocked");
    expect(mails.results[0]!.text).toContain("/reset-password");
  });

  it("resets the client's count of wrong passwords after a successful login", async () => {
    const m = await memberWithPassword();
    const client = { headers: { "CF-Connecting-IP": ip() } };
    for (let i = 1; i < LOGIN_MAX_ATTEMPTS; i++)
      await send("/login", { email: m.email, password: "nope-nope" }, client);
    await send("/login", { email: m.email, password: PASSWORD }, client);
    const text = await pageText(await send("/login", { email: m.email, password: "nope-nope" }, client));
    expect(text).toContain("Login failed, please try again");
  });

  it("refuses a deleted account", async () => {
    const m = await memberWithPassword();
    await env.DB.prepare("UPDATE users SET deleted_at = unixepoch() WHERE id = ?1").bind(m.id).run();
    expect(await pageText(await send("/login", { email: m.email, password: PASSWORD }))).toContain(
      "Login failed, please try again",
    );
  });

  it("refuses a cross-origin login post", async () => {
    const m = await memberWithPassword();
    const res = await send(
      "/login",
      { email: m.email, password: PASSWORD },
      { headers: { Origin: "http://evil.example" } },
    );
    expect(res.status).toBe(403);
  });
});

describe("/api/user.php", () => {
  it("answers a visitor 401 authentication_required", async () => {
    const res = await get("/api/user.php");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "authentication_required" });
  });

  it("answers the member with profile, paid_user, credits, language, status and notifications_disabled", async () => {
    const m = await memberWithPassword({ paidUser: true, credits: 42, language: "nl", name: "Greta" });
    await env.DB.prepare("INSERT INTO notifications_disabled (user_id, type, reason) VALUES (?1, 'news', 'bounce')")
      .bind(m.id)
      .run();
    const res = await get("/api/user.php", { cookie: await sessionCookie(m.id) });
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    const { user } = (await res.json()) as { user: Record<string, unknown> };
    expect(user).toMatchObject({
      paid_user: true,
      credits: 42,
      language: "nl",
      status: "confirmed",
      notifications_disabled: ["news"],
      profile: { name: "Greta", status: "active", main_image: null },
    });
    expect(JSON.stringify(user)).not.toContain("password");
  });

  it("logs in with POST (JSON), answering user and setting the cookie", async () => {
    const m = await memberWithPassword();
    const res = await send("/api/user.php", { email: m.email, password: PASSWORD }, { json: true });
    expect(res.status).toBe(200);
    const { user } = (await res.json()) as { user: { id: string } };
    expect(user.id).toBe(m.id);
    const me = await get("/api/user.php", { cookie: cookiesOf(res) });
    expect(me.status).toBe(200);
  });

  it("answers login failures and the lockout as JSON with the spec's messages", async () => {
    const m = await memberWithPassword();
    let last: Response | undefined;
    const client = { json: true, headers: { "CF-Connecting-IP": ip() } };
    for (let i = 0; i < LOGIN_MAX_ATTEMPTS; i++) {
      last = await send("/api/user.php", { email: m.email, password: "wrong-wrong" }, client);
      if (i < LOGIN_MAX_ATTEMPTS - 1) {
        expect(last.status).toBe(401);
        expect(await last.json()).toMatchObject({ error: "login_failed", message: "Login failed, please try again" });
      }
    }
    expect(await last!.json()).toEqual({
      error: "account_blocked",
      minutes: LOGIN_BLOCK_MINUTES,
      message: `Too many incorrect attempts, account blocked for ${LOGIN_BLOCK_MINUTES} min.`,
    });
  });

  it("saves the language with PUT", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    const res = await send("/api/user.php", { language: "pl" }, { method: "PUT", json: true, cookie });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { language: string } }).user.language).toBe("pl");
    expect((await env.DB.prepare("SELECT language FROM users WHERE id = ?1").bind(m.id).first())!.language).toBe("pl");
    expect((await send("/api/user.php", { language: "xx" }, { method: "PUT", json: true, cookie })).status).toBe(400);
    expect((await send("/api/user.php", { language: "pl" }, { method: "PUT", json: true })).status).toBe(401);
  });
});

describe("logout", () => {
  it("revokes the server-side session on POST; the old cookie no longer works", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    const res = await send("/api/logout.php", { redirectTo: "/" }, { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("sid=;") && /Max-Age=0/.test(c))).toBe(true);
    expect(await sessionsOf(m.id)).toBe(0);
    expect((await get("/api/user.php", { cookie })).status).toBe(401);
  });

  it("GET /api/logout.php changes nothing by itself: it answers a page that posts the logout", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    const res = await get("/api/logout.php", { cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<form method="post" action="/api/logout.php"');
    expect(html).toMatch(/<script nonce="[^"]+">/);
    expect(await sessionsOf(m.id)).toBe(1);
  });

  it("GET /api/logout.php from the site's own client (JSON or the request-type header) logs out (docs/product/api.md §7)", async () => {
    for (const headers of [{ Accept: "application/json" }, { "X-Request-Type": "fetch" }] as Record<string, string>[]) {
      const m = await memberWithPassword();
      const cookie = await sessionCookie(m.id);
      const res = await get("/api/logout.php", { cookie, headers });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      expect(res.headers.getSetCookie().some((c) => c.startsWith("sid=;"))).toBe(true);
      expect(await sessionsOf(m.id)).toBe(0);
    }
    // Another site's page cannot do it (the browser says where the request comes from).
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    await get("/api/logout.php", { cookie, headers: { Accept: "application/json", "Sec-Fetch-Site": "cross-site" } });
    expect(await sessionsOf(m.id)).toBe(1);
  });

  it("ends only this browser's session", async () => {
    const m = await memberWithPassword();
    const a = await sessionCookie(m.id);
    const b = await sessionCookie(m.id);
    await send("/api/logout.php", {}, { cookie: a });
    expect((await get("/api/user.php", { cookie: b })).status).toBe(200);
  });
});

describe("abuse throttling", () => {
  it(
    "throttles one client spraying passwords across many addresses (decision 088)",
    clockStopped(async () => {
      const headers = { "CF-Connecting-IP": "10.201.7.7" };
      const texts: string[] = [];
      for (let i = 0; i < 35; i++) {
        texts.push(
          await pageText(
            await send(
              "/login",
              { email: `spray-${i}-${Date.now()}@example.com`, password: "Summer2026!" },
              { headers },
            ),
          ),
        );
      }
      expect(texts.slice(0, LOGIN_ADDRESSES_PER_CLIENT).every((t) => t.includes("Login failed"))).toBe(true);
      expect(
        texts
          .slice(LOGIN_ADDRESSES_PER_CLIENT)
          .every((t) => t.includes("Too many attempts. Please wait a minute and try again.")),
      ).toBe(true);
      // Another client is not affected.
      expect(await pageText(await send("/login", { email: "spray-x@example.com", password: "x" }))).toContain(
        "Login failed",
      );
    }),
  );

  // The RATE_LIMITER binding counts per 60-second window of the wall clock: 31 real logins on a busy
  // machine can straddle a window. The rule is tested with a limiter of our own whose clock the test moves.
  it("slows down one client hammering the login of one address (RATE_LIMITER, 30 a minute)", async () => {
    const limiter = windowLimiter(30, 60);
    const env2 = { ...env, RATE_LIMITER: limiter } as Env;
    const headers = { "CF-Connecting-IP": "10.200.1.1" };
    const email = `hammer-${Date.now()}@example.com`;
    let text = "";
    for (let i = 0; i < 31; i++)
      text = await pageText(await throughWorker(env2, "/login", { email, password: "whatever-1" }, headers));
    expect(text).toContain("Too many attempts. Please wait a minute and try again.");
    expect(limiter.keys()).toEqual([`login:10.200.1.1:${email}`]);
    // Another address from the same client is not affected.
    expect(
      await pageText(await throughWorker(env2, "/login", { email: `other-${email}`, password: "whatever-1" }, headers)),
    ).toContain("Login failed");
    // A minute later the client may try again.
    limiter.advance(60);
    expect(await pageText(await throughWorker(env2, "/login", { email, password: "whatever-1" }, headers))).toContain(
      "Login failed",
    );
  });

  it("the rate limit counts the action, the client and the address apart (controlled window)", async () => {
    const limiter = windowLimiter(30, 60);
    const env2 = { ...env, RATE_LIMITER: limiter } as Env;
    const req = (ip: string) => new Request("http://localhost/login", { headers: { "CF-Connecting-IP": ip } });
    for (let i = 0; i < 30; i++)
      expect(await withinRateLimit(env2, req("10.201.0.1"), "login", "a@example.com")).toBe(true);
    expect(await withinRateLimit(env2, req("10.201.0.1"), "login", "A@Example.com ")).toBe(false);
    expect(await withinRateLimit(env2, req("10.201.0.1"), "login", "b@example.com")).toBe(true);
    expect(await withinRateLimit(env2, req("10.201.0.2"), "login", "a@example.com")).toBe(true);
    expect(await withinRateLimit(env2, req("10.201.0.1"), "reset", "a@example.com")).toBe(true);
    limiter.advance(59);
    expect(await withinRateLimit(env2, req("10.201.0.1"), "login", "a@example.com")).toBe(false);
    limiter.advance(1);
    expect(await withinRateLimit(env2, req("10.201.0.1"), "login", "a@example.com")).toBe(true);
  });
});
