/**
 * The library plumbing of login (remix-auth) and server-side translation (remix-i18next): the one
 * Authenticator answers exactly what the login rules say, and a member sees nothing new.
 */
import { env } from "cloudflare:test";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { describe, expect, it } from "vitest";
import { getFixedT, resolveLanguage } from "../../app/lib/i18n.server";
import { LOGIN_BLOCK_MINUTES, LOGIN_MAX_ATTEMPTS } from "../../app/models/accounts/login.server";
import { authenticate } from "../../app/models/auth.server";
import { PASSWORD, memberWithPassword, send } from "./accounts-support";

const context = { env, ctx: undefined, cf: undefined, nonce: "" } as unknown as AppLoadContext;

function credentials(email: string, password: string) {
  const form = new FormData();
  form.set("email", email);
  form.set("password", password);
  return form;
}
const loginRequest = (ip = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`) =>
  new Request("http://localhost/login", { method: "POST", headers: { Host: "localhost", "CF-Connecting-IP": ip } });

describe("the Authenticator's form strategy", () => {
  it("vouches for the member with the right password, with their saved language", async () => {
    const m = await memberWithPassword({ language: "it" });
    expect(await authenticate("form", loginRequest(), context, credentials(m.email.toUpperCase(), PASSWORD))).toEqual({
      ok: true,
      userId: m.id,
      language: "it",
    });
  });

  it("refuses with the login rules' reasons: failed, then blocked with the minutes left", async () => {
    const m = await memberWithPassword();
    // One client (the lockout is per client, decision 088): the same address every time.
    const ip = loginRequest().headers.get("CF-Connecting-IP") ?? undefined;
    for (let i = 1; i < LOGIN_MAX_ATTEMPTS; i++) {
      expect(await authenticate("form", loginRequest(ip), context, credentials(m.email, "wrong"))).toMatchObject({
        ok: false,
        reason: "failed",
      });
    }
    expect(await authenticate("form", loginRequest(ip), context, credentials(m.email, "wrong"))).toMatchObject({
      ok: false,
      reason: "blocked",
      minutes: LOGIN_BLOCK_MINUTES,
    });
    expect(
      await authenticate("form", loginRequest(), context, credentials("nobody@example.com", PASSWORD)),
    ).toMatchObject({ ok: false, reason: "failed" });
  });

  it("reports a throttled client as rate_limited without checking the password", async () => {
    const m = await memberWithPassword();
    const ip = "10.250.250.250";
    let last: Awaited<ReturnType<typeof authenticate>> | undefined;
    // The simulated limiter counts in wall-clock minutes: 70 tries cover one window boundary.
    for (let i = 0; i < 70 && (!last || last.ok); i++)
      last = await authenticate("form", loginRequest(ip), context, credentials(m.email, PASSWORD));
    expect(last).toEqual({ ok: false, reason: "rate_limited" });
  });

  it("sets no cookie but the session, the language and the known-device mark, on the form and on the JSON login", async () => {
    for (const json of [false, true]) {
      const m = await memberWithPassword({ language: "da" });
      const res = await send(json ? "/api/user.php" : "/login", { email: m.email, password: PASSWORD }, { json });
      const names = res.headers
        .getSetCookie()
        .map((c) => c.split("=")[0])
        .sort();
      // dev: this browser is a known device of the member's (decision 088: the lockout spares it); d1b:
      // the bookmark of the log-in's writes, so the next page reads them even from a replica (decision 222).
      expect(names).toEqual(["d1b", "dev", "lng", "sid"]);
    }
  });
});

describe("server-side translation through remix-i18next", () => {
  const request = (cookie = "") =>
    new Request("http://localhost/?lng=fr", { headers: { Cookie: cookie, "Accept-Language": "it" } });

  it("detects the locale cookie, then the brand's domain_language, then English (never the query or Accept-Language)", async () => {
    expect(await resolveLanguage(request("lng=sv"), "de_DE")).toBe("sv");
    expect(await resolveLanguage(request("lng=xx"), "de_DE")).toBe("de");
    expect(await resolveLanguage(request(), "nl-NL")).toBe("nl");
    expect(await resolveLanguage(request(), "pt_PT")).toBe("en");
    expect(await resolveLanguage(request(), null)).toBe("en");
  });

  it("gives loaders and mails a fixed t per language and namespace, falling back to English", async () => {
    const t = await getFixedT("de", "account");
    expect(t("errors.loginFailed")).not.toBe((await getFixedT("en", "account"))("errors.loginFailed"));
    expect((await getFixedT("en", "account"))("errors.blocked", { minutes: 7 })).toBe(
      "Too many incorrect attempts, account blocked for 7 min.",
    );
    expect(await getFixedT("de", "account")).toBe(t);
  });
});
