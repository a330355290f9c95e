import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { ledgerOf } from "./wallet-support";
import { createMember, get, sessionCookie } from "./fixtures";
import {
  cookiesOf,
  lastMailTo,
  mailedToken,
  pageText,
  send,
  signUp,
  signupForm,
  uniqueEmail,
} from "./accounts-support";
import { clockStopped } from "./clock";
import { RESET_MAILS_PER_DAY } from "../../app/models/accounts/common.server";

const setSignups = (host: string, value: string) =>
  env.DB.prepare("UPDATE brands SET signups = ?1 WHERE hostname = ?2").bind(value, host).run();

/** A new member made through the form and its mailed link (decision 224). */
async function newSignup() {
  const form = signupForm();
  const res = await signUp(form);
  expect(res.status).toBe(302);
  return form;
}

/** A sign-up's post: the one answer for every address (decision 224). */
async function expectSent(res: Response) {
  expect(res.status).toBe(302);
  expect(res.headers.get("Location")).toBe("/signup/sent");
  expect(cookiesOf(res)).not.toContain("sid=");
}

describe("sign-up", () => {
  afterEach(async () => {
    await setSignups("localhost", "all");
  });

  it("creates, once its mailed link is followed, a confirmed member with tracking, sign-up credits through the ledger and a session; the mail in their language", async () => {
    const form = signupForm({ network: "adnet", ref: "r1", sub1: "a", sub2: "b", sub3: "c" });
    const res = await signUp(form, { path: "/signup?network=adnet", host: "de.localhost" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/signup-matches");
    const user = await env.DB.prepare(
      "SELECT u.*, p.status AS profile_status, p.name FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.email = ?1",
    )
      .bind(form.email)
      .first<Record<string, unknown>>();
    expect(user).toMatchObject({
      status: "confirmed",
      profile_status: "active",
      credits: 5,
      language: "de",
      network: "adnet",
      ref: "r1",
      sub1: "a",
      sub2: "b",
      sub3: "c",
      signup_message: "Hi!",
      name: form.name,
    });
    const ledger = {
      results: (await ledgerOf(String(user!.id))).map((r) => ({ delta: r.delta, reason: r.reason })),
    };
    expect(ledger.results).toEqual([{ delta: 5, reason: "signup" }]);
    expect(String(user!.password_hash)).toMatch(/^pbkdf2-sha256\$100000\$/);
    // From NL: Herzklang asks a member of an unnamed network for a proof first (decision 197).
    const me = await get("/api/user.php", { host: "de.localhost", cookie: cookiesOf(res), country: "NL" });
    expect(((await me.json()) as { user: { status: string } }).user.status).toBe("confirmed");
    const mail = await lastMailTo(form.email);
    expect(mail!.subject).toContain("Bestätige");
    expect(mail!.text).toContain("http://de.localhost/signup/confirm?token=");
  });

  it("stores no ledger row when the brand gives no sign-up credits", async () => {
    const setCredits = (n: number) =>
      env.DB.prepare("UPDATE brands SET signup_credits = ?1 WHERE hostname = 'localhost'").bind(n).run();
    const before = await env.DB.prepare("SELECT signup_credits FROM brands WHERE hostname = 'localhost'").first<number>(
      "signup_credits",
    );
    await setCredits(0);
    try {
      const form = signupForm();
      expect((await signUp(form)).status).toBe(302);
      const row = await env.DB.prepare("SELECT id, credits FROM users WHERE email = ?1")
        .bind(form.email)
        .first<{ id: string; credits: number }>();
      expect(row!.credits).toBe(0);
      const ledger = { n: (await ledgerOf(row!.id)).length };
      expect(ledger!.n).toBe(0);
    } finally {
      await setCredits(before ?? 0);
    }
  });

  const cases: [string, Record<string, string>, string][] = [
    [
      "username equal to the e-mail",
      { email: "same@example.com", name: "same@example.com" },
      "Username may not be the same as your e-mail address",
    ],
    ["username starting with @", { name: "@sunny" }, "Username may not start with @"],
    ["missing date of birth", { date_of_birth: "" }, "Enter your date of birth (18+)"],
    [
      "under the brand's minimum age",
      { date_of_birth: `${new Date().getUTCFullYear() - 17}-01-01` },
      "You must be 18 or older to sign up.",
    ],
    ["impossible date of birth", { date_of_birth: "1990-02-31" }, "Invalid date of birth."],
    ["invalid e-mail", { email: "not-an-address" }, "Invalid email"],
  ];
  for (const [name, fields, message] of cases) {
    it(`refuses ${name}: '${message}'`, async () => {
      const form = signupForm(fields);
      const res = await send("/signup", form);
      expect(res.status).toBe(200);
      expect(await pageText(res)).toContain(message);
      const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?1")
        .bind(form.email)
        .first<{ n: number }>();
      expect(n!.n).toBe(0);
    });
  }

  it("uses the brand's minimum age", async () => {
    await env.DB.prepare("UPDATE brands SET min_age = 21 WHERE hostname = 'localhost'").run();
    try {
      const res = await send("/signup", signupForm({ date_of_birth: `${new Date().getUTCFullYear() - 20}-01-01` }));
      expect(await pageText(res)).toContain("You must be 21 or older to sign up.");
    } finally {
      await env.DB.prepare("UPDATE brands SET min_age = 18 WHERE hostname = 'localhost'").run();
    }
  });

  const mailCount = (to: string) =>
    env.DB.prepare('SELECT COUNT(*) AS n FROM mail_outbox WHERE "to" = ?1').bind(to).first<number>("n");
  const users = (email: string) =>
    env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?1").bind(email.toLowerCase()).first<number>("n");

  it("a known address answers 'check your e-mail' as a new one does, creates nothing, and mails its owner a way in (decision 202)", async () => {
    const form = await newSignup();
    const known = await send("/signup", { ...signupForm(), email: form.email.toUpperCase() });
    await expectSent(known);
    const text = await pageText(await get("/signup/sent"));
    expect(text).toContain(
      "We have sent an e-mail to the address you entered. Open it and follow its link to continue.",
    );
    expect(text).not.toMatch(/already exists|already has an account/i);
    expect(await users(form.email)).toBe(1);
    const mail = await lastMailTo(form.email);
    expect(mail!.subject).toBe("Someone tried to sign up at Amora with your e-mail address");
    expect(mail!.text).toContain("http://localhost/login");
    expect(mail!.text).toContain("http://localhost/reset-password");
    // A new address gets the same answer; its mail is the link that makes the account.
    const fresh = signupForm();
    await expectSent(await send("/signup", fresh));
    expect((await lastMailTo(fresh.email))!.subject).toBe("Confirm your sign-up at Amora");
  });

  it(
    "the owner's mail about a known address is sent a few times a day at most, the answer staying the same",
    clockStopped(async () => {
      const form = await newSignup();
      const before = (await mailCount(form.email))!;
      for (let i = 0; i < 5; i++) await expectSent(await send("/signup", signupForm({ email: form.email })));
      expect((await mailCount(form.email))! - before).toBe(RESET_MAILS_PER_DAY);
    }),
  );

  it("an account pending deletion: the same answer, and its owner gets the reactivation link", async () => {
    const form = await newSignup();
    await env.DB.prepare("UPDATE users SET deleted_at = unixepoch() WHERE email = ?1").bind(form.email).run();
    await expectSent(await send("/signup", signupForm({ email: form.email })));
    expect(await mailedToken(form.email, "/reactivate")).toBeTruthy();
    // Asking for reactivation of an unknown address answers as for a known one.
    for (const email of [form.email, uniqueEmail("ghost")])
      expect(await pageText(await send("/signup", { intent: "reactivate", reactivate_email: email, email }))).toContain(
        "We have sent you an e-mail with a link to reactivate your account.",
      );
  });

  it("ignores a filled-in honeypot", async () => {
    const form = signupForm({ website: "http://spam.example" });
    await send("/signup", form);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?1")
      .bind(form.email)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });

  it("is closed when sign-ups are invite-only", async () => {
    await setSignups("localhost", "other");
    expect(await pageText(await get("/signup?network=x"))).toContain("Sign-up is by invitation only");
    const form = signupForm({ network: "x" });
    const res = await send("/signup?network=x", form);
    expect(await pageText(res)).toContain("Sign-up is by invitation only");
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?1")
      .bind(form.email)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });

  it("needs a traffic source (network or ref) when the brand says with_trafficsource", async () => {
    expect(await pageText(await get("/signup", { host: "nl.localhost" }))).not.toContain('name="password"');
    const without = signupForm();
    await send("/signup", without, { host: "nl.localhost" });
    expect(await env.DB.prepare("SELECT id FROM users WHERE email = ?1").bind(without.email).first()).toBeNull();

    const page = await pageText(await get("/signup?ref=partner7", { host: "nl.localhost" }));
    expect(page).toContain('name="ref" value="partner7"');
    const withRef = signupForm({ ref: "partner7" });
    expect((await signUp(withRef, { path: "/signup?ref=partner7", host: "nl.localhost" })).status).toBe(302);
    const row = await env.DB.prepare("SELECT ref, brand_id FROM users WHERE email = ?1").bind(withRef.email).first();
    expect(row).toEqual({ ref: "partner7", brand_id: 3 });
  });

  it("keeps one account per e-mail address and brand: the same address may sign up on another brand", async () => {
    const email = uniqueEmail();
    expect((await signUp(signupForm({ email }))).status).toBe(302);
    expect((await signUp(signupForm({ email }), { host: "de.localhost" })).status).toBe(302);
  });
});

/**
 * Activation is for members not confirmed yet: those who signed up before sign-up by link (decision
 * 224), whose link the console can send again. A new sign-up is confirmed by its own link.
 */
async function unconfirmed() {
  const m = await createMember({ status: "not_confirmed", profileStatus: "disabled" });
  return { form: m, cookie: await sessionCookie(m.id) };
}

describe("activation", () => {
  it("confirms the e-mail address once through the mailed link, then the link fails with 'Activation failed'", async () => {
    const { form, cookie } = await unconfirmed();
    await send("/activate/resend", {}, { cookie });
    const token = await mailedToken(form.email, "/activate");
    // The link only shows a button: GET changes nothing.
    expect(await pageText(await get(`/activate?token=${token}`))).toContain("Confirm my e-mail address");
    expect((await env.DB.prepare("SELECT status FROM users WHERE email = ?1").bind(form.email).first())!.status).toBe(
      "not_confirmed",
    );

    const ok = await send("/activate", { token });
    expect(ok.headers.get("Location")).toBe("/activate/done");
    const row = await env.DB.prepare(
      "SELECT u.status, p.status AS ps FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.email = ?1",
    )
      .bind(form.email)
      .first();
    expect(row).toEqual({ status: "confirmed", ps: "active" });
    const done = await pageText(await get("/activate/done", { cookie }));
    expect(done).toContain("Your account is active");
    expect(done).toContain("Get Premium");
    // The members card says what /members shows (its order: tests/e2e/search-defaults.spec.ts), not that
    // everyone there is online right now (decision 179).
    expect(done).toContain("Browse members around your age: those online now come first, then the nearest.");
    expect(done).not.toMatch(/online right now/i);

    const again = await send("/activate", { token });
    expect(again.headers.get("Location")).toBe("/activate/error");
    expect(await pageText(await get("/activate/error"))).toContain("Activation failed");
  });

  it(
    "sends a new link on request, at most a few a day",
    clockStopped(async () => {
      const { cookie } = await unconfirmed();
      for (let i = 0; i < 3; i++)
        expect(await pageText(await send("/activate/resend", {}, { cookie }))).toContain(
          "A new activation link has been sent",
        );
      expect(await pageText(await send("/activate/resend", {}, { cookie }))).toContain(
        "Too many activation emails sent",
      );
    }),
  );

  it("shows the activation reminder to a not-confirmed member, but not on settings", async () => {
    const { cookie } = await unconfirmed();
    expect(await pageText(await get("/activate/resend", { cookie }))).toContain("Please confirm your e-mail address.");
    expect((await get("/activate/done", { cookie })).headers.get("Location")).toBe("/activate/resend");
    expect(await pageText(await get("/settings", { cookie }))).not.toContain("Please confirm your e-mail address.");
  });
});
