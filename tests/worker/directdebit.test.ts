/**
 * /directdebit as a member (and an attacker) uses it: the form's checks, the SMS code (wrong, expired,
 * too many attempts, replayed, raced), the blocked flag, the monthly limit, logged out, and aimed at
 * another member's request. SMS are read from the development outbox.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { flushAll, ledgerOf } from "./wallet-support";
import { LANGUAGES } from "../../app/lib/constants";
import { loadMessages, resources } from "../../app/lib/messages";
import { DIRECT_DEBIT_METHOD, MAX_ATTEMPTS, SMS_PER_DAY } from "../../app/models/directdebit.server";
import { createMember, sessionCookie } from "./fixtures";
import { DIRECT_DEBIT_DETAILS, expectLedgerExplains, webhook } from "./payments-support";
import { clockStopped } from "./clock";

const VALID = { ...DIRECT_DEBIT_DETAILS, package: "p1", mobile: "06 12345678" };

let phone = 10_000_000;
/** A Dutch mobile number of its own per test, so outbox lookups never see another test's SMS. */
const nextMobile = () => `06${String(++phone).slice(-8)}`;
const e164 = (national: string) => `+31${national.slice(1)}`;

/** A member who signed up a month ago: no offer any more, full prices (offers-directdebit.test.ts has the discounts). */
async function member(o: Parameters<typeof createMember>[0] = {}) {
  const m = await createMember(o);
  await env.DB.prepare("UPDATE users SET created_at = unixepoch() - 30 * 86400 WHERE id = ?1").bind(m.id).run();
  return { ...m, cookie: `${await sessionCookie(m.id)}; dev_country=NL` };
}

function postForm(cookie: string | null, form: Record<string, string>, country = "NL") {
  const headers: Record<string, string> = {
    Host: "localhost",
    Origin: "http://localhost",
    "Content-Type": "application/x-www-form-urlencoded",
    "X-Dev-Country": country,
  };
  if (cookie) headers.Cookie = cookie;
  // As the browser posts it: the form's action is the page's own URL, package included.
  const query = form.intent === "details" ? `?package=${encodeURIComponent(form.package ?? "")}` : "";
  return SELF.fetch(`http://localhost/directdebit${query}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(form),
    redirect: "manual",
  });
}

function page(cookie: string, query = "") {
  return SELF.fetch(`http://localhost/directdebit${query}`, {
    headers: { Host: "localhost", Cookie: cookie },
    redirect: "manual",
  });
}

const count = async (sql: string, ...params: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>())!.n;
const requestOf = (userId: string) =>
  env.DB.prepare("SELECT * FROM directdebit_requests WHERE user_id = ?1 ORDER BY created_at DESC, rowid DESC LIMIT 1")
    .bind(userId)
    .first<{
      id: string;
      status: string;
      attempts: number;
      code_hash: string;
      iban: string;
      holder: string;
      mobile: string;
      sends: number;
    }>();
const smsTo = (to: string) =>
  env.DB.prepare('SELECT body FROM sms_outbox WHERE "to" = ?1 ORDER BY id DESC')
    .bind(to)
    .all<{ body: string }>()
    .then((r) => r.results);
const codeIn = (body: string) => /\b(\d{6})\b/.exec(body)![1]!;

/** A member with an open request whose code came by SMS. */
async function withCode(o: Parameters<typeof createMember>[0] = {}) {
  const m = await member(o);
  const mobile = nextMobile();
  const res = await postForm(m.cookie, { ...VALID, mobile });
  expect(res.status).toBe(302);
  const request = (await requestOf(m.id))!;
  const [sms] = await smsTo(e164(mobile));
  return { ...m, mobile: e164(mobile), requestId: request.id, code: codeIn(sms!.body) };
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("direct debit form", () => {
  it("valid details store a request with a hashed code and send the code by SMS; the page then asks for it", async () => {
    const m = await member();
    const mobile = nextMobile();
    const res = await postForm(m.cookie, { ...VALID, mobile });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/directdebit");
    const sms = await smsTo(e164(mobile));
    expect(sms).toHaveLength(1);
    expect(sms[0]!.body).toMatch(/Amora: your direct debit code is \d{6}\./);
    const code = codeIn(sms[0]!.body);
    const row = (await requestOf(m.id))!;
    expect(row).toMatchObject({ status: "open", iban: "NL91ABNA0417164300", mobile: e164(mobile), attempts: 0 });
    expect(row.code_hash).not.toContain(code);
    const html = await (await page(m.cookie)).text();
    expect(html).toContain("Confirm with the code");
    expect(html).toContain("+31\u00A0••••\u00A0" + e164(mobile).slice(-3));
    expect(html).toContain("NL91\u00A0••••\u00A04300");
    expect(html).not.toContain("ABNA0417");
  });

  const expectRefused = async (fields: Record<string, string>, message: string, country = "NL") => {
    const m = await member();
    const res = await postForm(m.cookie, { ...VALID, mobile: nextMobile(), ...fields }, country);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
    expect(await count("SELECT COUNT(*) AS n FROM directdebit_requests WHERE user_id = ?1", m.id)).toBe(0);
  };

  it("a bad IBAN (checksum, length, letters) is refused with a translated message, nothing stored or sent", async () => {
    await expectRefused({ iban: "NL91 ABNA 0417 1643 01" }, "This IBAN is not valid.");
    await expectRefused({ iban: "NL91ABNA04171643" }, "This IBAN is not valid.");
    await expectRefused({ iban: "hello" }, "This IBAN is not valid.");
    await expectRefused({ iban: "" }, "This IBAN is not valid.");
  });

  it("an IBAN of another country than the payment country, or outside SEPA, is refused", async () => {
    await expectRefused(
      { iban: "DE89 3704 0044 0532 0130 00" },
      "Use a bank account from Netherlands, the country you pay from.",
    );
    await expectRefused(
      { iban: "SA03 8000 0000 6080 1016 7519" },
      "Direct debit needs a bank account in the SEPA area.",
    );
  });

  it("a mobile number that is not a mobile number of a SEPA country is refused", async () => {
    for (const mobile of ["020 123 4567", "0612", "+1 202 555 0143", "call me", "+31 6 1234 5678 9"]) {
      await expectRefused({ mobile }, "Enter a valid mobile number.");
    }
  });

  it("the messages follow the page language", async () => {
    const m = await member();
    const res = await postForm(`${m.cookie}; lng=de`, { ...VALID, iban: "NL00 0000", mobile: nextMobile() });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Diese IBAN ist ungültig.");
  });

  it("invisible characters are removed; a field of only invisible characters is empty", async () => {
    await expectRefused({ holder: "\u200B\u202E\u2066 \u200D" }, "Enter the name of the account holder.");
    const m = await member();
    const mobile = nextMobile();
    const res = await postForm(m.cookie, {
      ...VALID,
      mobile,
      holder: "Jan\u202E Jansen\u200B",
      iban: "NL91\u200BABNA\u00AD0417164300",
      city: "Amster\u0000dam",
    });
    expect(res.status).toBe(302);
    const row = (await requestOf(m.id))!;
    expect(row.holder).toBe("Jan Jansen");
    expect(row.iban).toBe("NL91ABNA0417164300");
  });

  it("huge inputs are refused with a message, not stored and not a 5xx", async () => {
    await expectRefused({ holder: "A".repeat(10_000) }, "Enter the name of the account holder.");
    await expectRefused({ iban: "NL".repeat(10_000) }, "This IBAN is not valid.");
    await expectRefused({ postalCode: "1".repeat(5000) }, "Enter a valid postal code.");
    // Above the shared body parser's limit the whole post is refused before it is read (decision 115).
    const m = await member();
    const res = await postForm(m.cookie, { ...VALID, mobile: nextMobile(), holder: "A".repeat(100_000) });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("The request is too large.");
    expect(await count("SELECT COUNT(*) AS n FROM directdebit_requests WHERE user_id = ?1", m.id)).toBe(0);
  });

  it("an unknown package changes nothing", async () => {
    const m = await member();
    const res = await postForm(m.cookie, { ...VALID, package: "p9", mobile: nextMobile() });
    expect(res.status).toBe(400);
    expect(await count("SELECT COUNT(*) AS n FROM directdebit_requests WHERE user_id = ?1", m.id)).toBe(0);
  });

  it("after logout (no session) a post goes to the login and changes nothing", async () => {
    const mobile = nextMobile();
    const res = await postForm(null, { ...VALID, mobile });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/login/);
    expect(await smsTo(e164(mobile))).toHaveLength(0);
  });

  it("a post from another site is refused", async () => {
    const m = await member();
    const mobile = nextMobile();
    const res = await SELF.fetch("http://localhost/directdebit", {
      method: "POST",
      headers: {
        Host: "localhost",
        Origin: "https://evil.example",
        Cookie: m.cookie,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ ...VALID, mobile }),
      redirect: "manual",
    });
    expect(res.status).toBe(403);
    expect(await smsTo(e164(mobile))).toHaveLength(0);
  });

  it(
    "20 posts at once send at most the daily number of SMS",
    clockStopped(async () => {
      const m = await member();
      const results = await Promise.all(
        Array.from({ length: 20 }, () => postForm(m.cookie, { ...VALID, mobile: nextMobile() })),
      );
      expect(results.filter((r) => r.status === 302)).toHaveLength(SMS_PER_DAY);
      expect(results.filter((r) => r.status === 429)).toHaveLength(20 - SMS_PER_DAY);
      expect(
        await count("SELECT COUNT(*) AS n FROM directdebit_requests WHERE user_id = ?1 AND status = 'open'", m.id),
      ).toBeLessThanOrEqual(SMS_PER_DAY);
    }),
  );
});

describe("blocked members and the monthly limit", () => {
  it("a member flagged for it is told 'Your account is blocked for direct debit payments.' and gets no SMS", async () => {
    const m = await member();
    await env.DB.prepare("UPDATE users SET directdebit_blocked = 1 WHERE id = ?1").bind(m.id).run();
    expect(await (await page(m.cookie, "?package=p1")).text()).toContain(
      "Your account is blocked for direct debit payments.",
    );
    const mobile = nextMobile();
    const res = await postForm(m.cookie, { ...VALID, mobile });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Your account is blocked for direct debit payments.");
    expect(await smsTo(e164(mobile))).toHaveLength(0);
  });

  async function paid(userId: string, cents: number, o: { status?: string; method?: string; createdAt?: number } = {}) {
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status, created_at)
       VALUES (?1, ?2, 1, 'p3', 400, ?3, 'EUR', ?4, 'sandbox', ?5, ?6)`,
    )
      .bind(
        `pay-${crypto.randomUUID()}`,
        userId,
        cents,
        o.method ?? DIRECT_DEBIT_METHOD,
        o.status ?? "pending",
        o.createdAt ?? Math.floor(Date.now() / 1000),
      )
      .run();
  }

  it("direct debits of this month count towards the brand's limit; other methods, failed ones and last month do not", async () => {
    const m = await member();
    const limit = (await env.DB.prepare("SELECT directdebit_monthly_limit_cents AS n FROM brands WHERE id = 1").first<{
      n: number;
    }>())!.n;
    // p1 costs 1995: 1 cent more than the room left is over the limit.
    await paid(m.id, limit - 1995 - 1000);
    await paid(m.id, 999, { status: "paid" });
    await paid(m.id, 5000, { method: "ideal", status: "paid" });
    await paid(m.id, 5000, { status: "failed" });
    await paid(m.id, 5000, { createdAt: Math.floor(Date.now() / 1000) - 40 * 86400 });
    expect(await (await page(m.cookie, "?package=p0")).text()).not.toContain("monthly limit");
    expect(await (await page(m.cookie, "?package=p1")).text()).not.toContain("monthly limit");
    await paid(m.id, 2);
    const html = await (await page(m.cookie, "?package=p1")).text();
    expect(html).toContain("You have reached the monthly limit of €");
    const mobile = nextMobile();
    const res = await postForm(m.cookie, { ...VALID, mobile });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("You have reached the monthly limit");
    expect(await smsTo(e164(mobile))).toHaveLength(0);
    // The cheaper package still fits.
    expect((await postForm(m.cookie, { ...VALID, package: "p0", mobile })).status).toBe(302);
  });

  it("where the method table does not offer direct debit (France) the form is not shown", async () => {
    const m = await member();
    const html = await (
      await SELF.fetch("http://localhost/directdebit?package=p1", {
        headers: { Host: "localhost", Cookie: m.cookie.replace("dev_country=NL", "dev_country=FR") },
      })
    ).text();
    expect(html).toContain("Direct debit is not available in your country.");
    expect(html).not.toContain("Send me the code");
    const res = await postForm(
      m.cookie,
      { ...VALID, iban: "FR14 2004 1010 0505 0001 3M02 606", mobile: "06 12 34 56 78", postalCode: "75001" },
      "FR",
    );
    expect(res.status).toBe(403);
  });

  it("outside SEPA direct debit is not offered", async () => {
    const m = await member();
    const res = await postForm(m.cookie, { ...VALID, mobile: nextMobile() }, "US");
    expect(res.status).toBe(400); // the IBAN is not of the payment country
    const html = await (
      await SELF.fetch("http://localhost/directdebit?package=p1", {
        headers: { Host: "localhost", Cookie: m.cookie.replace("dev_country=NL", "dev_country=US") },
      })
    ).text();
    expect(html).toContain("Direct debit is not available in your country.");
  });
});

describe("the SMS code", () => {
  it("a wrong code says 'Code invalid' and counts one attempt", async () => {
    const m = await withCode();
    const res = await postForm(m.cookie, { intent: "code", request: m.requestId, code: wrong(m.code) });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Code invalid");
    expect((await requestOf(m.id))!).toMatchObject({ status: "open", attempts: 1 });
  });

  it("a malformed code is 'Code invalid' too", async () => {
    const m = await withCode();
    for (const code of ["", "12345", "abcdef", "1".repeat(10_000)]) {
      const res = await postForm(m.cookie, { intent: "code", request: m.requestId, code });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("Code invalid");
    }
    expect((await requestOf(m.id))!.status).toBe("open");
  });

  it("the right code with spaces and invisible characters is accepted once; its replay is refused", async () => {
    const m = await withCode();
    const spaced = `${m.code.slice(0, 3)} \u200B${m.code.slice(3)}`;
    const first = await postForm(m.cookie, { intent: "code", request: m.requestId, code: spaced });
    expect(first.status).toBe(302);
    expect((await requestOf(m.id))!.status).toBe("done");
    const replay = await postForm(m.cookie, { intent: "code", request: m.requestId, code: m.code });
    expect(replay.status).toBe(409);
    expect(await replay.text()).toContain("This code has already been used.");
  });

  it("an expired code is refused even when right", async () => {
    const m = await withCode();
    await env.DB.prepare("UPDATE directdebit_requests SET code_expires_at = unixepoch() - 1 WHERE id = ?1")
      .bind(m.requestId)
      .run();
    const res = await postForm(m.cookie, { intent: "code", request: m.requestId, code: m.code });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("This code has expired.");
    expect((await requestOf(m.id))!.status).toBe("open");
  });

  it(`after ${MAX_ATTEMPTS} wrong codes even the right one is refused`, async () => {
    const m = await withCode();
    for (let i = 0; i < MAX_ATTEMPTS; i++)
      await postForm(m.cookie, { intent: "code", request: m.requestId, code: wrong(m.code) });
    const res = await postForm(m.cookie, { intent: "code", request: m.requestId, code: m.code });
    expect(res.status).toBe(429);
    expect(await res.text()).toContain("Too many wrong codes.");
    expect((await requestOf(m.id))!.status).toBe("open");
  });

  it("the right code sent 10 times at once is accepted exactly once: one mandate, one payment", async () => {
    const m = await withCode();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => postForm(m.cookie, { intent: "code", request: m.requestId, code: m.code })),
    );
    expect(results.filter((r) => r.status === 302)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    expect(await count("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1", m.id)).toBe(1);
    expect(
      await count(
        "SELECT COUNT(*) AS n FROM sandbox_objects WHERE kind = 'mandate' AND idempotency_key = ?1",
        `mandate-${m.requestId}`,
      ),
    ).toBe(1);
    // The request is the click: its payment carries it as the unique key the provider also gets (decision 115).
    expect(
      await count(
        "SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1 AND intent_key = ?2",
        m.id,
        `dd-${m.requestId}`,
      ),
    ).toBe(1);
    expect(
      await count(
        "SELECT COUNT(*) AS n FROM sandbox_objects WHERE kind = 'payment' AND idempotency_key = ?1",
        `dd-${m.requestId}`,
      ),
    ).toBe(1);
  });

  it("a new code is throttled, replaces the old one, and is capped per request", async () => {
    const m = await withCode();
    const soon = await postForm(m.cookie, { intent: "resend", request: m.requestId });
    expect(soon.status).toBe(429);
    expect(await soon.text()).toContain("You can ask for a new code in a minute.");
    expect(await smsTo(m.mobile)).toHaveLength(1);
    await env.DB.prepare("UPDATE directdebit_requests SET last_sent_at = last_sent_at - 61 WHERE id = ?1")
      .bind(m.requestId)
      .run();
    const again = await postForm(m.cookie, { intent: "resend", request: m.requestId });
    expect(again.status).toBe(200);
    expect(await again.text()).toContain("We sent you a new code.");
    const sms = await smsTo(m.mobile);
    expect(sms).toHaveLength(2);
    const newCode = codeIn(sms[0]!.body);
    if (newCode !== m.code) {
      const old = await postForm(m.cookie, { intent: "code", request: m.requestId, code: m.code });
      expect(await old.text()).toContain("Code invalid");
    }
    await env.DB.prepare("UPDATE directdebit_requests SET last_sent_at = last_sent_at - 61, sends = 3 WHERE id = ?1")
      .bind(m.requestId)
      .run();
    const capped = await postForm(m.cookie, { intent: "resend", request: m.requestId });
    expect(capped.status).toBe(429);
    expect(await smsTo(m.mobile)).toHaveLength(2);
  });

  it("another member's request can be neither confirmed, resent nor cancelled", async () => {
    const victim = await withCode();
    const attacker = await member();
    const confirm = await postForm(attacker.cookie, { intent: "code", request: victim.requestId, code: victim.code });
    expect(confirm.status).toBe(404);
    await env.DB.prepare("UPDATE directdebit_requests SET last_sent_at = last_sent_at - 61 WHERE id = ?1")
      .bind(victim.requestId)
      .run();
    expect((await postForm(attacker.cookie, { intent: "resend", request: victim.requestId })).status).toBe(404);
    await postForm(attacker.cookie, { intent: "cancel", request: victim.requestId, package: "p1" });
    expect(await smsTo(victim.mobile)).toHaveLength(1);
    expect((await requestOf(victim.id))!).toMatchObject({ status: "open", attempts: 0, sends: 1 });
    // The victim's own code still works.
    const own = await postForm(victim.cookie, { intent: "code", request: victim.requestId, code: victim.code });
    expect(own.status).not.toBe(404);
    expect((await requestOf(victim.id))!.status).not.toBe("open");
  });

  it("'Change my details' cancels the request and shows the form again", async () => {
    const m = await withCode();
    const res = await postForm(m.cookie, { intent: "cancel", request: m.requestId, package: "p1" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/directdebit?package=p1");
    expect((await requestOf(m.id))!.status).toBe("canceled");
    const code = await postForm(m.cookie, { intent: "code", request: m.requestId, code: m.code });
    expect(code.status).toBe(404);
    expect(await (await page(m.cookie, "?package=p1")).text()).toContain("Send me the code");
  });
});

describe("every step in every language", () => {
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");
  for (const lng of LANGUAGES) {
    it(`the form, the code step and a wrong code speak ${lng}`, async () => {
      await loadMessages(lng);
      const dd = resources[lng].directdebit as typeof import("../../locales/en/directdebit.json");
      const m = await member({ language: lng });
      const cookie = `${m.cookie}; lng=${lng}`;
      const form = await (await page(cookie, "?package=p1")).text();
      expect(form).toContain(escape(dd.fields.holder));
      expect(form).toContain(escape(dd.send));
      const mobile = nextMobile();
      expect((await postForm(cookie, { ...VALID, mobile })).status).toBe(302);
      const sms = (await smsTo(e164(mobile)))[0]!.body;
      // The SMS is in the page's language too.
      expect(sms).toBe(
        dd.sms.code.replace("{{brand}}", "Amora").replace("{{code}}", codeIn(sms)).replace("{{minutes}}", "10"),
      );
      const step = await (await page(cookie)).text();
      expect(step).toContain(escape(dd.code.title));
      const request = (await requestOf(m.id))!;
      const wrongCode = await postForm(cookie, { intent: "code", request: request.id, code: wrong(codeIn(sms)) });
      expect(await wrongCode.text()).toContain(escape(dd.errors.codeInvalid));
      for (const html of [form, step]) expect(html).not.toMatch(/>\s*(fields|code|errors|hints)\.[a-zA-Z]+\s*</);
    });
  }
});

describe("after the right code: mandate, payment, pending, then paid", () => {
  const paymentOf = (id: string) =>
    env.DB.prepare("SELECT * FROM payments WHERE id = ?1").bind(id).first<{
      status: string;
      method: string;
      sequence_type: string;
      mandate_id: string;
      customer_id: string;
      provider_ref: string;
      amount_cents: number;
      credits: number;
    }>();
  const userOf = async (id: string) =>
    (await flushAll(id)) ??
    env.DB.prepare("SELECT credits, paid_user FROM users WHERE id = ?1")
      .bind(id)
      .first<{ credits: number; paid_user: number }>();

  it("makes a directdebit mandate from the form and a pending payment on it; paid later, the webhook credits once", async () => {
    const m = await withCode({ credits: 0 });
    const res = await postForm(m.cookie, { intent: "code", request: m.requestId, code: m.code });
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    const paymentId = /^\/credits\/p1\/sepa_directdebit\?payment=([\w-]+)$/.exec(location)?.[1];
    expect(paymentId, location).toBeTruthy();

    const payment = (await paymentOf(paymentId!))!;
    expect(payment).toMatchObject({
      status: "pending",
      method: "sepa_directdebit",
      sequence_type: "recurring",
      amount_cents: 1995,
      credits: 60,
    });
    const mandate = await env.DB.prepare("SELECT data FROM sandbox_objects WHERE id = ?1 AND kind = 'mandate'")
      .bind(payment.mandate_id)
      .first<{ data: string }>();
    expect(JSON.parse(mandate!.data)).toMatchObject({
      method: "directdebit",
      consumerName: "Jan Jansen",
      consumerAccount: "NL91ABNA0417164300",
      customerId: payment.customer_id,
      status: "valid",
    });
    // The IBAN is at the provider now; we keep it masked.
    expect((await requestOf(m.id))!).toMatchObject({ status: "done", iban: "NL91\u00A0••••\u00A04300" });
    expect(await userOf(m.id)).toEqual({ credits: 0, paid_user: 0 });

    // The pending screen, as the member sees it.
    const pending = await SELF.fetch(`http://localhost${location}`, {
      headers: { Host: "localhost", Cookie: m.cookie },
    });
    expect(await pending.text()).toContain("Your payment is being processed");

    // The bank collects: the tester settles it on the sandbox page, which calls the webhook.
    const settle = await SELF.fetch(`http://localhost/sandbox/${payment.provider_ref}`, {
      method: "POST",
      headers: { Host: "localhost", Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ outcome: "settle" }),
      redirect: "manual",
    });
    expect(settle.status).toBe(302);
    expect(settle.headers.get("Location")).toBe(`http://localhost${location}`);
    expect((await paymentOf(paymentId!))!.status).toBe("paid");
    expect(await userOf(m.id)).toEqual({ credits: 60, paid_user: 1 });

    // Replayed and concurrent webhooks change nothing more.
    await Promise.all(Array.from({ length: 10 }, () => webhook(payment.provider_ref)));
    expect(await userOf(m.id)).toEqual({ credits: 60, paid_user: 1 });
    expect((await ledgerOf(m.id, (r) => r.reason === "purchase")).length).toBe(1);
    await expectLedgerExplains(m.id);
    const done = await SELF.fetch(`http://localhost${location}`, { headers: { Host: "localhost", Cookie: m.cookie } });
    expect(await done.text()).toContain("Payment complete");
  });

  it("a second member's customer and mandate are their own; the same member reuses their customer", async () => {
    const m = await withCode();
    await postForm(m.cookie, { intent: "code", request: m.requestId, code: m.code });
    const mobile = nextMobile();
    await postForm(m.cookie, { ...VALID, package: "p0", mobile });
    const second = (await requestOf(m.id))!;
    const [sms] = await smsTo(e164(mobile));
    expect((await postForm(m.cookie, { intent: "code", request: second.id, code: codeIn(sms!.body) })).status).toBe(
      302,
    );
    expect(await count("SELECT COUNT(DISTINCT customer_id) AS n FROM payments WHERE user_id = ?1", m.id)).toBe(1);
    expect(await count("SELECT COUNT(DISTINCT mandate_id) AS n FROM payments WHERE user_id = ?1", m.id)).toBe(2);
  });

  /** A request verified by its code, waiting for the provider (as a failed provider call leaves it). */
  async function verified(userId: string, pkg = "p3") {
    const id = `dd-${crypto.randomUUID()}`;
    await env.DB.prepare(
      `INSERT INTO directdebit_requests (id, user_id, brand_id, package_id, amount_cents, currency, holder, iban, country, street, house_number,
         postal_code, city, mobile, code_hash, code_expires_at, last_sent_at, status)
       SELECT ?1, ?2, 1, id, price_cents, currency, 'Jan Jansen', 'NL91ABNA0417164300', 'NL', 'Keizersgracht', '1', '1015 CJ', 'Amsterdam',
         '+31612345678', 'x', unixepoch() + 600, unixepoch(), 'verified' FROM packages WHERE id = ?3`,
    )
      .bind(id, userId, pkg)
      .run();
    return id;
  }

  it("the same 'Continue' posted 10 times at once after the right code: one payment, one provider payment", async () => {
    const m = await withCode();
    await env.DB.prepare("UPDATE directdebit_requests SET status = 'verified' WHERE id = ?1").bind(m.requestId).run();
    await Promise.all(
      Array.from({ length: 10 }, () => postForm(m.cookie, { intent: "complete", request: m.requestId })),
    );
    expect(await count("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1", m.id)).toBe(1);
    expect(
      await count(
        "SELECT COUNT(*) AS n FROM sandbox_objects WHERE kind = 'payment' AND idempotency_key = ?1",
        `dd-${m.requestId}`,
      ),
    ).toBe(1);
  });

  it("two verified requests confirmed at once cannot both pass the monthly limit", async () => {
    const m = await member();
    const limit = (await env.DB.prepare("SELECT directdebit_monthly_limit_cents AS n FROM brands WHERE id = 1").first<{
      n: number;
    }>())!.n;
    // Room for exactly one p3 (7995) this month.
    const room = limit - 7995 - 100;
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status)
       VALUES (?1, ?2, 1, 'p3', 400, ?3, 'EUR', ?4, 'sandbox', 'paid')`,
    )
      .bind(`pay-${crypto.randomUUID()}`, m.id, room, DIRECT_DEBIT_METHOD)
      .run();
    const a = await verified(m.id);
    const b = await verified(m.id);
    const results = await Promise.all([a, b].map((id) => postForm(m.cookie, { intent: "complete", request: id })));
    expect(results.map((r) => r.status).sort()).toEqual([302, 403]);
    expect(await count("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1 AND amount_cents = 7995", m.id)).toBe(1);
  });

  it("a member blocked between the code and the payment is not charged", async () => {
    const m = await member();
    const id = await verified(m.id, "p1");
    await env.DB.prepare("UPDATE users SET directdebit_blocked = 1 WHERE id = ?1").bind(m.id).run();
    const res = await postForm(m.cookie, { intent: "complete", request: id });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Your account is blocked for direct debit payments.");
    expect(await count("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1", m.id)).toBe(0);
  });

  it("another member cannot complete a verified request", async () => {
    const victim = await member();
    const id = await verified(victim.id, "p1");
    const attacker = await member();
    expect((await postForm(attacker.cookie, { intent: "complete", request: id })).status).toBe(404);
    expect(await count("SELECT COUNT(*) AS n FROM payments WHERE user_id IN (?1, ?2)", victim.id, attacker.id)).toBe(0);
  });
});

describe("housekeeping", () => {
  it("the daily cron deletes details that never became a mandate after a day, and keeps handed-over ones masked", async () => {
    const { runScheduled } = await import("../../app/lib/scheduled.server");
    const abandoned = await withCode();
    const paid = await withCode();
    expect((await postForm(paid.cookie, { intent: "code", request: paid.requestId, code: paid.code })).status).toBe(
      302,
    );
    await env.DB.prepare("UPDATE directdebit_requests SET created_at = created_at - 2 * 86400 WHERE id IN (?1, ?2)")
      .bind(abandoned.requestId, paid.requestId)
      .run();
    await runScheduled(null, env as never);
    expect(await requestOf(abandoned.id)).toBeNull();
    expect((await requestOf(paid.id))!).toMatchObject({ status: "done", iban: "NL91\u00A0••••\u00A04300" });
  });
});
