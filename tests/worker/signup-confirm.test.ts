import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { SIGNUP_CONFIRM_HOURS } from "../../app/models/accounts/signup.server";
import { get } from "./fixtures";
import {
  PASSWORD,
  cookiesOf,
  lastMailTo,
  mailedToken,
  memberWithPassword,
  pageText,
  send,
  signupForm,
  uniqueEmail,
} from "./accounts-support";
import { clockStopped } from "./clock";

const accounts = (email: string) =>
  env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?1").bind(email.toLowerCase()).first<number>("n");

/** The names of the cookies a response sets (their values differ by nature: a CSRF token, a time). */
const cookieNames = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split("=")[0])
    .sort();

/** What a browser sees of an answer: the cookies by name only, the body without its per-response script nonce. */
async function seen(res: Response) {
  const body = (await res.text()).replace(/nonce="[^"]*"/g, 'nonce=""');
  return { status: res.status, location: res.headers.get("Location"), cookies: cookieNames(res), body };
}

describe("sign-up by confirmation link first (decision 224)", () => {
  it("answers a new and a known address alike, without a session; the new gets a link, the owner a way in", async () => {
    const known = await memberWithPassword();
    const fresh = signupForm();
    const a = await send("/signup", fresh);
    const b = await send("/signup", signupForm({ email: known.email }));
    const [seenA, seenB] = [await seen(a), await seen(b)];
    expect(seenA).toEqual(seenB);
    expect(seenA.status).toBe(302);
    expect(seenA.location).toBe("/signup/sent");
    expect(seenA.cookies).not.toContain("sid");
    // The page both land on names no address.
    const page = await pageText(await get("/signup/sent"));
    expect(page).toContain("Check your e-mail");
    expect(page).toContain("We have sent an e-mail to the address you entered.");
    expect(page).not.toContain(fresh.email);
    // Nothing exists yet for the new address: logging in with its password fails.
    expect(await accounts(fresh.email)).toBe(0);
    const login = await send("/login", { email: fresh.email, password: PASSWORD });
    expect(cookiesOf(login)).not.toContain("sid=");
    // The mails tell them apart, each to its own address only.
    const confirm = await lastMailTo(fresh.email);
    expect(confirm!.subject).toBe("Confirm your sign-up at Amora");
    expect(confirm!.text).toContain("http://localhost/signup/confirm?token=");
    expect(confirm!.text).toContain(`works once and for ${SIGNUP_CONFIRM_HOURS} hours`);
    const owner = await lastMailTo(known.email);
    expect(owner!.subject).toBe("Someone tried to sign up at Amora with your e-mail address");
    expect(owner!.text).toContain("http://localhost/login");
    expect(owner!.text).toContain("http://localhost/reset-password");
    expect(await accounts(known.email)).toBe(1);
  });

  it("the link shows a button (GET creates nothing); its post creates the confirmed member once and logs in", async () => {
    const form = signupForm({ network: "adnet", ref: "r9" });
    await send("/signup?network=adnet", form, { host: "de.localhost" });
    const token = await mailedToken(form.email, "/signup/confirm");
    expect((await lastMailTo(form.email))!.subject).toBe("Bestätige deine Registrierung bei Herzklang");
    const landing = await get(`/signup/confirm?token=${token}`, { host: "de.localhost" });
    expect(landing.status).toBe(200);
    expect(await pageText(landing)).toContain("Bestätigen und Konto anlegen");
    expect(await accounts(form.email)).toBe(0);

    const ok = await send("/signup/confirm", { token }, { host: "de.localhost" });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("Location")).toBe("/signup-matches");
    expect(cookiesOf(ok)).toContain("sid=");
    const user = await env.DB.prepare(
      "SELECT u.status, u.language, u.network, u.ref, u.signup_message, u.password_hash, p.status AS ps, p.name FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.email = ?1",
    )
      .bind(form.email)
      .first<Record<string, string>>();
    expect(user).toMatchObject({
      status: "confirmed",
      ps: "active",
      language: "de",
      network: "adnet",
      ref: "r9",
      signup_message: "Hi!",
      name: form.name,
    });
    expect(user!.password_hash).toMatch(/^pbkdf2-sha256\$/);
    // The member can log in with the password typed on the form.
    expect(
      cookiesOf(await send("/login", { email: form.email, password: PASSWORD }, { host: "de.localhost" })),
    ).toContain("sid=");

    const again = await send("/signup/confirm", { token }, { host: "de.localhost" });
    expect(again.status).toBe(400);
    expect(cookiesOf(again)).not.toContain("sid=");
    expect(await pageText(again)).toContain(
      "Dieser Anmeldelink ist abgelaufen, wurde schon benutzt oder ist ungültig.",
    );
    expect(await accounts(form.email)).toBe(1);
  });

  it(
    "an expired link is refused with a translated 4xx page and creates nothing",
    clockStopped(async () => {
      const form = signupForm();
      await send("/signup", form);
      const token = await mailedToken(form.email, "/signup/confirm");
      vi.setSystemTime(Date.now() + (SIGNUP_CONFIRM_HOURS * 3600 + 1) * 1000);
      const page = await get(`/signup/confirm?token=${token}`);
      expect(page.status).toBe(400);
      expect(await pageText(page)).toContain("This sign-up link has expired, was already used or is not valid.");
      const res = await send("/signup/confirm", { token });
      expect(res.status).toBe(400);
      expect(cookiesOf(res)).not.toContain("sid=");
      expect(await accounts(form.email)).toBe(0);
    }),
  );

  it("a forged link, and another brand's, are refused and change nothing", async () => {
    const form = signupForm();
    await send("/signup", form);
    const token = await mailedToken(form.email, "/signup/confirm");
    for (const [host, t] of [
      ["localhost", "forged-token-000000000000000000000000"],
      ["localhost", ""],
      ["localhost", "x".repeat(5000)],
      ["de.localhost", token],
    ] as const) {
      const res = await send("/signup/confirm", { token: t }, { host });
      expect(res.status).toBe(400);
      expect(cookiesOf(res)).not.toContain("sid=");
      expect((await get(`/signup/confirm?token=${encodeURIComponent(t)}`, { host })).status).toBe(400);
    }
    expect(await accounts(form.email)).toBe(0);
    // The brand's own link still works.
    expect((await send("/signup/confirm", { token })).headers.get("Location")).toBe("/signup-matches");
  });

  it("a second sign-up of a waiting address sends a new link; the first link followed spends the others", async () => {
    const email = uniqueEmail("twice");
    await send("/signup", signupForm({ email }));
    const first = await mailedToken(email, "/signup/confirm");
    await send("/signup", signupForm({ email }));
    const second = await mailedToken(email, "/signup/confirm");
    expect(second).not.toBe(first);
    expect((await send("/signup/confirm", { token: second })).status).toBe(302);
    expect((await send("/signup/confirm", { token: first })).status).toBe(400);
    expect(await accounts(email)).toBe(1);
    // Once it has an account, the address is a known one: its owner gets the way in, not a link.
    await send("/signup", signupForm({ email }));
    expect((await lastMailTo(email))!.subject).toBe("Someone tried to sign up at Amora with your e-mail address");
  });

  it("password reset answers a known and an unknown address with the same page", async () => {
    const m = await memberWithPassword();
    const a = await seen(await send("/reset-password", { email: m.email }));
    const b = await seen(await send("/reset-password", { email: uniqueEmail("ghost") }));
    expect(a).toEqual(b);
    expect(a.body).toContain("If an account exists for this address, we have sent it a link to choose a new password.");
  });
});
