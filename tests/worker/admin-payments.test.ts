/**
 * The console's payments (decision 178): role checks, a refund (all or part) through
 * the payments model with its audit row, one refund per click, the override path, the accounting CSV.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ledgerOf as walletRows, spendViaWallet } from "./wallet-support";
import { VAT_RATES_BP, vatOf } from "../../app/models/payment-rules";
import { createMember } from "./fixtures";
import { OPERATOR_PASSWORD, auditRows, createOperator, operatorCookie } from "./admin-support";
import {
  choose,
  expectLedgerExplains,
  get,
  member,
  paymentRow,
  post as rawPost,
  startPayment,
  userRow,
} from "./payments-support";

/** A refund post as the confirmation step sends it: confirmed, with the password again (decision 217). */
const post = (path: string, form: Record<string, string>, init: Parameters<typeof rawPost>[2]) =>
  rawPost(
    path,
    form.intent === "refund" ? { ...form, confirmed: "1", reauth_password: OPERATOR_PASSWORD } : form,
    init,
  );

async function operator(role: "finance" | "admin" | "support" | "moderator") {
  const op = await createOperator(role);
  return { ...op, cookie: await operatorCookie(op.id) };
}

/** A member who bought package p1 (1995 cents, 60 credits, EUR) through the sandbox, paid. */
async function paidPurchase() {
  const m = await member();
  const { providerId, paymentId } = await startPayment(m.cookie, "p1", "ideal");
  await choose(providerId, "paid");
  expect((await paymentRow(paymentId))!.status).toBe("paid");
  return { m, providerId, paymentId };
}

/** The refund form's one-time token, as the payment page renders it. */
async function refundToken(paymentId: string, cookie: string) {
  const html = await (await get(`/admin/payments/${paymentId}`, { cookie })).text();
  const key = /name="intent_key" value="([^"]+)"/.exec(html)?.[1];
  expect(key, "refund form").toBeTruthy();
  return key!;
}

const sandboxRefunds = async (providerId: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM sandbox_objects WHERE kind = 'refund' AND parent_id = ?1")
    .bind(providerId)
    .first<{ n: number }>())!.n;
const refundsOf = (paymentId: string) =>
  env.DB.prepare("SELECT id, credits, amount_cents, status FROM refunds WHERE payment_id = ?1")
    .bind(paymentId)
    .all<{ id: string; credits: number; amount_cents: number; status: string }>()
    .then((r) => r.results);
const ledgerOf = async (userId: string) =>
  (await walletRows(userId)).map((r) => ({ delta: r.delta, reason: r.reason, ref_id: r.ref_id }));

describe("who opens the payments", () => {
  it("finance and admin see the list and a payment; support and moderator get 403 and change nothing", async () => {
    const { paymentId } = await paidPurchase();
    for (const role of ["finance", "admin"] as const) {
      const { cookie } = await operator(role);
      const list = await get("/admin/payments", { cookie });
      expect(list.status, role).toBe(200);
      expect(await list.text()).toContain(paymentId);
      const one = await get(`/admin/payments/${paymentId}`, { cookie });
      expect(one.status, role).toBe(200);
      // The console ships no JavaScript (decision 167): the refund form posts as it is.
      expect(await one.text()).not.toMatch(/<script|modulepreload/i);
    }
    for (const role of ["support", "moderator"] as const) {
      const { cookie } = await operator(role);
      expect((await get("/admin/payments", { cookie })).status, role).toBe(403);
      expect((await get(`/admin/payments/${paymentId}`, { cookie })).status, role).toBe(403);
      const refund = await post(
        `/admin/payments/${paymentId}`,
        { intent: "refund", intent_key: crypto.randomUUID().replaceAll("-", ""), amount: "1.00" },
        { cookie },
      );
      expect(refund.status, role).toBe(403);
      const csv = await post("/admin/payments/export", { brand: "1", month: "2026-01" }, { cookie });
      expect(csv.status, role).toBe(403);
    }
    expect(await refundsOf(paymentId)).toEqual([]);
  });

  it("filters by status, method, country and amount, and pages on by keyset", async () => {
    const { cookie } = await operator("finance");
    const { paymentId } = await paidPurchase();
    const hit = await (
      await get("/admin/payments?status=paid&method=ideal&country=NL&min=19.95&max=19.95", { cookie })
    ).text();
    expect(hit).toContain(paymentId);
    const miss = await (await get("/admin/payments?status=paid&min=20", { cookie })).text();
    expect(miss).not.toContain(paymentId);
    // Garbage filters are ignored, not errors.
    expect((await get("/admin/payments?status=nope&min=abc&after=%27%3B--", { cookie })).status).toBe(200);
  });
});

describe("refund state in the list", () => {
  it("shows refunded, partly refunded, refund pending and refund failed from the refunds table", async () => {
    const op = await operator("finance");
    const a = await createMember({ country: "NL" });
    // Newer than anything else the tests make, so all six are on the first page.
    const at = 4_000_000_000;
    const ids = ["rs-full", "rs-part", "rs-pend", "rs-fail", "rs-none", "rs-refail"];
    for (const [i, id] of ids.entries())
      await env.DB.prepare(
        `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status, payment_country, paid_at, created_at, updated_at)
         VALUES (?1, ?2, 1, 'p1', 60, 1995, 'EUR', 'ideal', 'sandbox', 'paid', 'NL', ?3, ?3, ?3)`,
      )
        .bind(id, a.id, at + i)
        .run();
    const refund = (id: string, pay: string, cents: number, status: string) =>
      env.DB.prepare(
        "INSERT INTO refunds (id, payment_id, user_id, credits, amount_cents, currency, status, created_at) VALUES (?1, ?2, ?3, 1, ?4, 'EUR', ?5, ?6)",
      )
        .bind(id, pay, a.id, cents, status, at)
        .run();
    await refund("rs-r1", "rs-full", 1995, "refunded");
    await refund("rs-r2", "rs-part", 500, "refunded");
    await refund("rs-r3", "rs-pend", 500, "pending");
    await refund("rs-r4", "rs-fail", 500, "failed");
    // A failed refund followed by one that was paid out: partly refunded, not failed.
    await refund("rs-r5", "rs-refail", 500, "failed");
    await refund("rs-r6", "rs-refail", 400, "refunded");
    const html = await (await get("/admin/payments", op)).text();
    const rowOf = (id: string) =>
      new RegExp(`<tr>(?:(?!</tr>).)*>${id}</code>(?:(?!</tr>).)*</tr>`, "s").exec(html)?.[0] ?? "";
    const state = (id: string) =>
      /(refund pending|partly refunded|refund failed|refunded)</.exec(rowOf(id))?.[1] ?? null;
    expect(Object.fromEntries(ids.map((id) => [id, state(id)]))).toEqual({
      "rs-full": "refunded",
      "rs-part": "partly refunded",
      "rs-pend": "refund pending",
      "rs-fail": "refund failed",
      "rs-none": null,
      "rs-refail": "partly refunded",
    });
  });
});

describe("a refund from the console", () => {
  it("refunds half a payment through the sandbox once; the payment, refund and ledger explain the balance; audited", async () => {
    const op = await operator("finance");
    const { m, providerId, paymentId } = await paidPurchase();
    const bought = (await paymentRow(paymentId))!.credits as number;
    const before = (await userRow(m.id))!.credits;
    const key = await refundToken(paymentId, op.cookie);
    const res = await post(`/admin/payments/${paymentId}`, { intent: "refund", intent_key: key, amount: "9.97" }, op);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/admin/payments/${paymentId}?refunded=${key}`);
    expect(await sandboxRefunds(providerId)).toBe(1);
    const half = Math.ceil((997 * bought) / 1995);
    expect(half).toBe(30);
    expect(await refundsOf(paymentId)).toMatchObject([{ id: key, credits: half, amount_cents: 997 }]);
    expect((await userRow(m.id))!.credits).toBe(before - half);
    expect((await ledgerOf(m.id)).filter((l) => l.ref_id === paymentId)).toEqual([
      { delta: bought, reason: "purchase", ref_id: paymentId },
      { delta: -half, reason: "refund", ref_id: paymentId },
    ]);
    await expectLedgerExplains(m.id);
    const audit = (await auditRows(paymentId)).filter((r) => r.action.startsWith("payment."));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "payment.refund", operatorId: op.id, role: "finance", reason: "" });
    expect(audit[0]!.after).toMatchObject({ refundId: key, amountCents: 997, credits: half });
    // The page shows it, and a second refund of the same payment is refused.
    const page = await (await get(`/admin/payments/${paymentId}?refunded=${key}`, op)).text();
    expect(page).toContain("made");
    expect(page).toContain("€9.97");
    const again = await post(
      `/admin/payments/${paymentId}`,
      { intent: "refund", intent_key: crypto.randomUUID().replaceAll("-", ""), amount: "1.00" },
      op,
    );
    expect(await again.text()).toContain("This payment already has a refund.");
    expect(await sandboxRefunds(providerId)).toBe(1);
  });

  it("the form and its confirmation say how many credits the refund takes back, and that spent ones stay spent", async () => {
    const op = await operator("finance");
    const { m, paymentId } = await paidPurchase();
    expect(await spendViaWallet(m.id, 20, "photo")).toBe(true);
    const page = (await (await get(`/admin/payments/${paymentId}`, op)).text()).replaceAll("&#x27;", "'");
    expect(page).toContain(
      "a refund takes back the refunded share of the 60 credits bought, rounded up, but only those still unused: 40 now. Refunding all €19.95 takes back 40; the 20 already spent are not taken back (the balance never goes below zero)",
    );
    const confirm = async (amount: string) => {
      const res = await rawPost(
        `/admin/payments/${paymentId}`,
        {
          intent: "refund",
          intent_key: await refundToken(paymentId, op.cookie),
          amount,
          override: "on",
          reason: "goodwill",
        },
        op,
      );
      expect(res.status).toBe(200);
      return (await res.text()).replaceAll("&#x27;", "'");
    };
    // Part: its share (5.00 of 19.95 pays for 16 of the 60) is unused, so all of it is taken back.
    expect(await confirm("5.00")).toContain(
      "Refund €5.00 of payment " +
        paymentId +
        " to the member, taking back 16 of the member's credits (the refunded share of the 60 bought is 16; 40 are unused now).",
    );
    // All: only the 40 unused go; the 20 spent stay spent.
    expect(await confirm("19.95")).toContain(
      "taking back 40 of the member's credits (the refunded share of the 60 bought is 60; 40 are unused now); the other 20 are already spent and are not taken back",
    );
    expect(await refundsOf(paymentId)).toEqual([]);
  });

  it("a double-submitted form (the same click, at once and again later) refunds once and calls the provider once", async () => {
    const op = await operator("admin");
    const { m, providerId, paymentId } = await paidPurchase();
    const before = (await userRow(m.id))!.credits;
    const key = await refundToken(paymentId, op.cookie);
    const form = { intent: "refund", intent_key: key, amount: "19.95" };
    const answers = await Promise.all([1, 2, 3].map(() => post(`/admin/payments/${paymentId}`, form, op)));
    const replay = await post(`/admin/payments/${paymentId}`, form, op);
    for (const r of [...answers, replay]) {
      expect(r.status).toBe(302);
      expect(r.headers.get("Location")).toBe(`/admin/payments/${paymentId}?refunded=${key}`);
    }
    expect(await refundsOf(paymentId)).toHaveLength(1);
    expect(await sandboxRefunds(providerId)).toBe(1);
    expect((await auditRows(paymentId)).filter((r) => r.action === "payment.refund")).toHaveLength(1);
    expect((await userRow(m.id))!.credits).toBe(before - 60);
    await expectLedgerExplains(m.id);
  });

  it("outside the member's rules only an override with a reason refunds; credits never go below zero; the override is audited", async () => {
    const op = await operator("finance");
    const { m, providerId, paymentId } = await paidPurchase();
    // Past the brand's refund days, and most credits spent.
    await env.DB.prepare("UPDATE payments SET paid_at = paid_at - 400 * 86400 WHERE id = ?1").bind(paymentId).run();
    // The member spent all but 3 of their credits (as the chat would: balance and ledger together).
    const spent = (await userRow(m.id))!.credits - 3;
    expect(await spendViaWallet(m.id, spent, "message")).toBe(true);
    await expectLedgerExplains(m.id);
    const plain = await post(
      `/admin/payments/${paymentId}`,
      { intent: "refund", intent_key: await refundToken(paymentId, op.cookie), amount: "19.95" },
      op,
    );
    expect(await plain.text()).toContain("refund period is over");
    const noReason = await post(
      `/admin/payments/${paymentId}`,
      {
        intent: "refund",
        intent_key: await refundToken(paymentId, op.cookie),
        amount: "19.95",
        override: "on",
        reason: "",
      },
      op,
    );
    expect(await noReason.text()).toContain("An override needs a reason");
    const tooMuch = await post(
      `/admin/payments/${paymentId}`,
      {
        intent: "refund",
        intent_key: await refundToken(paymentId, op.cookie),
        amount: "19.96",
        override: "on",
        reason: "Goodwill",
      },
      op,
    );
    expect(await tooMuch.text()).toContain("more than");
    expect(await refundsOf(paymentId)).toEqual([]);
    expect(await sandboxRefunds(providerId)).toBe(0);

    const key = await refundToken(paymentId, op.cookie);
    const res = await post(
      `/admin/payments/${paymentId}`,
      {
        intent: "refund",
        intent_key: key,
        amount: "19.95",
        override: "on",
        reason: "Charged twice by the bank, ticket 4711",
      },
      op,
    );
    expect(res.status).toBe(302);
    expect(await sandboxRefunds(providerId)).toBe(1);
    // The whole amount back; only the 3 unused credits taken back (never below zero).
    expect(await refundsOf(paymentId)).toMatchObject([{ id: key, credits: 3, amount_cents: 1995 }]);
    expect((await userRow(m.id))!.credits).toBe(0);
    await expectLedgerExplains(m.id);
    const audit = (await auditRows(paymentId)).filter((r) => r.action.startsWith("payment."));
    expect(audit.map((a) => [a.action, a.reason])).toEqual([
      ["payment.refund_override", "Charged twice by the bank, ticket 4711"],
    ]);
  });

  it("shows a chargeback and what it took", async () => {
    const op = await operator("finance");
    const { paymentId } = await paidPurchase();
    await env.DB.prepare(
      "UPDATE payments SET status = 'charged_back', charged_back_cents = 1995, chargeback_unrecovered_credits = 2 WHERE id = ?1",
    )
      .bind(paymentId)
      .run();
    const html = await (await get(`/admin/payments/${paymentId}`, op)).text();
    expect(html).toContain("Chargeback");
    expect(html).toContain("The bank took back <strong>€19.95</strong>");
    expect(html).toContain("2 were already spent");
    expect(html).not.toContain('name="intent_key"');
  });
});

describe("the accounting export", () => {
  it("lists a brand's month with VAT per country as on the receipts; totals are the sums; audited; a download", async () => {
    const op = await operator("finance");
    const brandId = 1;
    const a = await createMember({ country: "NL" });
    // March 2025 (UTC): payments in three countries, one refunded in part; one in April and one of another brand stay out.
    const march = Date.UTC(2025, 2, 10) / 1000;
    const rows: [string, string | null, number, string, number][] = [
      ["csv-nl-1", "NL", 995, "paid", march],
      ["csv-nl-2", "NL", 2495, "paid", march + 3600],
      ["csv-de-1", "DE", 995, "paid", march + 7200],
      ["csv-be-1", "BE", 4995, "paid", march + 9000],
      ["csv-xx-1", null, 1999, "paid", march + 9500],
      ["csv-cb-1", "DE", 1995, "charged_back", march + 9900],
      ["csv-apr-1", "NL", 995, "paid", Date.UTC(2025, 3, 1) / 1000],
    ];
    for (const [id, country, cents, status, paidAt] of rows)
      await env.DB.prepare(
        `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status, payment_country, paid_at, created_at, updated_at, charged_back_cents)
         VALUES (?1, ?2, ?3, 'p1', 100, ?4, 'EUR', 'ideal', 'sandbox', ?5, ?6, ?7, ?7, ?7, ?8)`,
      )
        .bind(id, a.id, brandId, cents, status, country, paidAt, status === "charged_back" ? cents : null)
        .run();
    await env.DB.prepare(
      "INSERT INTO refunds (id, payment_id, user_id, credits, amount_cents, currency, status, created_at) VALUES ('csv-rf-1', 'csv-nl-2', ?1, 50, 1247, 'EUR', 'refunded', ?2), ('csv-rf-2', 'csv-de-1', ?1, 50, 500, 'EUR', 'failed', ?2)",
    )
      .bind(a.id, march + 86_400)
      .run();

    const res = await post("/admin/payments/export", { brand: String(brandId), month: "2025-03" }, op);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/csv");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename=".+-2025-03\.csv"$/);
    const [header, ...lines] = (await res.text()).trimEnd().split("\r\n");
    expect(header).toBe(
      "type,id,payment_id,date_utc,member_id,method,vat_country,vat_rate_percent,currency,gross,vat,net,payer_country,payer_country_differs,settlement_id,settled,settled_currency,settlement_check",
    );
    const cells = lines.map((l) => l.split(","));
    const cents = (v: string) => Math.round(Number(v) * 100);
    const ofType = (t: string) => cells.filter((c) => c[0] === t);
    expect(
      ofType("payment")
        .map((c) => c[1])
        .sort(),
    ).toEqual(["csv-be-1", "csv-cb-1", "csv-de-1", "csv-nl-1", "csv-nl-2", "csv-xx-1"]);
    expect(ofType("refund").map((c) => [c[1], c[9]])).toEqual([["csv-rf-1", "-12.47"]]);
    expect(ofType("chargeback").map((c) => [c[1], c[9]])).toEqual([["csv-cb-1", "-19.95"]]);

    // Expected per country, computed here from the rows with the receipt's rule (payment country, else the seller's: NL).
    const company = (await env.DB.prepare(
      "SELECT c.country FROM brands b JOIN companies c ON c.id = b.company_id WHERE b.id = ?1",
    )
      .bind(brandId)
      .first<{ country: string }>())!.country;
    const expected = new Map<string, { gross: number; vat: number }>();
    const add = (country: string | null, gross: number) => {
      const c = country && VAT_RATES_BP[country] !== undefined ? country : company;
      const { vatCents } = vatOf(Math.abs(gross), VAT_RATES_BP[c]!);
      const e = expected.get(c) ?? { gross: 0, vat: 0 };
      e.gross += gross;
      e.vat += Math.sign(gross) * vatCents;
      expected.set(c, e);
    };
    for (const [id, country, c] of rows) if (id !== "csv-apr-1") add(country, c);
    add("NL", -1247);
    add("DE", -1995);
    const totals = ofType("total");
    expect(totals.map((t) => t[6]).sort()).toEqual([...expected.keys()].sort());
    for (const t of totals) {
      const e = expected.get(t[6]!)!;
      expect([t[6], cents(t[9]!), cents(t[10]!)]).toEqual([t[6], e.gross, e.vat]);
      // The total is the sum of its lines; net = gross - VAT.
      const mine = cells.filter((c) => c[0] !== "total" && c[6] === t[6]);
      expect(mine.reduce((s, c) => s + cents(c[9]!), 0)).toBe(cents(t[9]!));
      expect(mine.reduce((s, c) => s + cents(c[10]!), 0)).toBe(cents(t[10]!));
      expect(cents(t[11]!)).toBe(cents(t[9]!) - cents(t[10]!));
    }
    // The rate shown is the receipt's (Germany 19 %).
    expect(ofType("payment").find((c) => c[1] === "csv-de-1")![7]).toBe("19.00");
    const audit = (await auditRows(String(brandId))).filter(
      (r) => r.action === "payment.export" && r.operatorId === op.id,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatchObject({ month: "2025-03", lines: 8 });
  });

  it("keeps a refund the provider has not confirmed out of the CSV; it counts in the month the provider confirms it", async () => {
    const op = await operator("finance");
    const { paymentId, providerId } = await paidPurchase();
    const key = await refundToken(paymentId, op.cookie);
    await post(`/admin/payments/${paymentId}`, { intent: "refund", intent_key: key, amount: "5.00" }, op);
    const pending = (await env.DB.prepare("SELECT status, created_at, provider_ref FROM refunds WHERE id = ?1")
      .bind(key)
      .first<{ status: string; created_at: number; provider_ref: string }>())!;
    expect(pending.status).toBe("pending");
    const monthOf = (at: number) => new Date(at * 1000).toISOString().slice(0, 7);
    const refundLines = async (month: string) => {
      const res = await post("/admin/payments/export", { brand: "1", month }, op);
      expect(res.status).toBe(200);
      return (await res.text())
        .split("\r\n")
        .map((l) => l.split(","))
        .filter((c) => c[0] === "refund")
        .map((c) => [c[1], c[9]]);
    };
    // Pending at the provider: no money moved yet, so not in the month's CSV.
    expect(await refundLines(monthOf(pending.created_at))).toEqual([]);
    // The bank pays it out: the webhook records when, and the CSV of that month carries it.
    expect(
      (await post(`/sandbox/${providerId}`, { refund: "refunded", refundId: pending.provider_ref }, {})).status,
    ).toBe(302);
    const done = (await env.DB.prepare("SELECT status, refunded_at FROM refunds WHERE id = ?1")
      .bind(key)
      .first<{ status: string; refunded_at: number | null }>())!;
    expect(done.status).toBe("refunded");
    expect(done.refunded_at).toBeGreaterThanOrEqual(pending.created_at);
    expect(await refundLines(monthOf(done.refunded_at!))).toEqual([[key, "-5.00"]]);

    // Made in February, confirmed in March: a March line, not a February one; one still processing stays out.
    const a = await createMember({ country: "NL" });
    const feb = Date.UTC(2024, 1, 28) / 1000;
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, status, payment_country, paid_at, created_at, updated_at)
       VALUES ('late-p-1', ?1, 1, 'p1', 60, 1995, 'EUR', 'ideal', 'sandbox', 'paid', 'NL', ?2, ?2, ?2)`,
    )
      .bind(a.id, feb - 86_400)
      .run();
    await env.DB.prepare(
      `INSERT INTO refunds (id, payment_id, user_id, credits, amount_cents, currency, status, created_at, refunded_at) VALUES
        ('late-rf-1', 'late-p-1', ?1, 30, 1000, 'EUR', 'refunded', ?2, ?3),
        ('late-rf-2', 'late-p-1', ?1, 10, 300, 'EUR', 'processing', ?2, NULL)`,
    )
      .bind(a.id, feb, Date.UTC(2024, 2, 2) / 1000)
      .run();
    expect(await refundLines("2024-02")).toEqual([]);
    expect(await refundLines("2024-03")).toEqual([["late-rf-1", "-10.00"]]);
  });

  it("refuses a malformed month or an unknown brand; a GET goes to the payments page", async () => {
    const op = await operator("admin");
    expect((await post("/admin/payments/export", { brand: "1", month: "2025-13" }, op)).status).toBe(400);
    expect((await post("/admin/payments/export", { brand: "999", month: "2025-03" }, op)).status).toBe(404);
    const page = await get("/admin/payments/export", op);
    expect([page.status, page.headers.get("Location")]).toEqual([302, "/admin/payments"]);
  });
});
