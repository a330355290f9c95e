/**
 * Finance blocks direct debit for a member from the console (decision 228): audited, lifted the same
 * way; a blocked member is not offered direct debit or a SEPA mandate (the checkout and /directdebit
 * say why, in their language) and their existing SEPA mandate is not charged.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { auditRows, createOperator, operatorCookie } from "./admin-support";
import { choose, clickKey, get, member, paymentRow, post, startPayment } from "./payments-support";

async function operator(role: "finance" | "admin" | "support" | "moderator") {
  const op = await createOperator(role);
  return { ...op, cookie: await operatorCookie(op.id) };
}

const blocked = async (userId: string) =>
  (await env.DB.prepare("SELECT directdebit_blocked AS b FROM users WHERE id = ?1")
    .bind(userId)
    .first<{ b: number }>())!.b;

/** The methods /credits/p1 links to, as a member sees them. */
async function methodsOf(cookie: string) {
  const html = await (await get("/credits/p1", { cookie })).text();
  const list = /data-testid="payment-methods">(.*?)<\/ul>/s.exec(html)?.[1] ?? "";
  return { html, methods: [...list.matchAll(/href="\/credits\/p1\/(\w+)[?#"]/g)].map((x) => x[1]) };
}

/** Flirtlokaal (nl.localhost): direct debit starts with the member's bank paying once (decision 208). */
const HOST = "nl.localhost";
const FLIRTLOKAAL = 3;
const bankFirst = (cookie: string) =>
  post("/directdebit", { intent: "first", package: "p1", intentKey: clickKey() }, { host: HOST, cookie });

/** A Flirtlokaal member whose bank paid p1 once with iDEAL: the sandbox leaves a SEPA direct debit mandate. */
async function withMandate() {
  const m = await member({ brandId: FLIRTLOKAAL, language: "nl" });
  const res = await bankFirst(m.cookie);
  expect(res.status).toBe(302);
  const providerId = /\/sandbox\/(tr_\w+)$/.exec(res.headers.get("Location")!)![1]!;
  await choose(providerId, "paid");
  const row = (await env.DB.prepare("SELECT * FROM payments WHERE provider_ref = ?1")
    .bind(providerId)
    .first<Record<string, unknown>>())!;
  expect(row).toMatchObject({ status: "paid", sequence_type: "first" });
  expect(row.mandate_id).toBeTruthy();
  return { m, paymentId: row.id as string };
}

const repeat = (cookie: string) =>
  post("/credits/repeat-order", { intent: "repeat", intent_key: clickKey() }, { host: HOST, cookie });
const paymentsOf = async (userId: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM payments WHERE user_id = ?1").bind(userId).first<{ n: number }>())!
    .n;

describe("blocking direct debit from the console", () => {
  it("finance blocks it on a payment of the member and lifts it again, each once and audited; support and moderators cannot", async () => {
    const { m, paymentId } = await withMandate();
    for (const role of ["support", "moderator"] as const) {
      const op = await operator(role);
      const res = await post(
        `/admin/payments/${paymentId}`,
        { intent: "directdebit_block", reason: "reversed debit" },
        op,
      );
      expect(res.status, role).toBe(403);
    }
    expect(await blocked(m.id)).toBe(0);
    const fin = await operator("finance");
    const page = await (await get(`/admin/payments/${paymentId}`, fin)).text();
    expect(page).toContain("Block direct debit");
    // A reason is required: without one nothing changes.
    const bare = await post(`/admin/payments/${paymentId}`, { intent: "directdebit_block", reason: "" }, fin);
    expect(await bare.text()).toContain("Give a reason");
    expect(await blocked(m.id)).toBe(0);

    const res = await post(
      `/admin/payments/${paymentId}`,
      { intent: "directdebit_block", reason: "reversed debit" },
      fin,
    );
    expect([res.status, res.headers.get("Location")]).toEqual([302, `/admin/payments/${paymentId}?dd=blocked`]);
    expect(await blocked(m.id)).toBe(1);
    // The same post again changes nothing and writes no second audit row.
    const again = await post(
      `/admin/payments/${paymentId}`,
      { intent: "directdebit_block", reason: "reversed debit" },
      fin,
    );
    expect(await again.text()).toContain("Direct debit is already blocked for this member.");
    const admin = await operator("admin");
    const lifted = await post(
      `/admin/payments/${paymentId}`,
      { intent: "directdebit_unblock", reason: "bank confirmed the debit" },
      admin,
    );
    expect(lifted.status).toBe(302);
    expect(await blocked(m.id)).toBe(0);
    const audit = (await auditRows(m.id)).filter((r) => r.action.startsWith("member.directdebit"));
    expect(audit.map((r) => [r.action, r.operatorId, r.reason]).sort()).toEqual(
      [
        ["member.directdebit_block", fin.id, "reversed debit"],
        ["member.directdebit_unblock", admin.id, "bank confirmed the debit"],
      ].sort(),
    );
  });
});

describe("a blocked member", () => {
  it("is not offered direct debit or a SEPA mandate at the checkout, and is told why in their language", async () => {
    const german = await member({ language: "de" });
    // The page language is the member's choice of language (the lng cookie the site sets at login).
    const m = { ...german, cookie: `${german.cookie}; lng=de` };
    const before = await methodsOf(m.cookie);
    expect(before.methods).toContain("sepa_directdebit");
    expect(before.html).not.toContain('data-testid="dd-blocked"');
    await env.DB.prepare("UPDATE users SET directdebit_blocked = 1 WHERE id = ?1").bind(m.id).run();
    const after = await methodsOf(m.cookie);
    expect(after.methods).not.toContain("sepa_directdebit");
    expect(after.methods).toContain("ideal");
    expect(after.html).toContain("Lastschrift wird nicht angeboten: Ihr Konto ist für Lastschriftzahlungen gesperrt.");
    const index = await (await get("/credits", { cookie: m.cookie })).text();
    expect(index).toContain('data-testid="dd-blocked"');
    // /directdebit offers no package to choose, only why.
    const dd = await (await get("/directdebit", { cookie: m.cookie })).text();
    expect(dd).toContain('data-testid="dd-refusal"');
    expect(dd).not.toContain('data-testid="packages"');
    // A posted direct debit is refused, and nothing is stored.
    const sepa = await post(
      "/credits/p1/sepa_directdebit",
      { intent: "pay", intent_key: clickKey(), method: "sepa_directdebit" },
      { cookie: m.cookie },
    );
    expect(sepa.status).toBe(200);
    expect(await paymentsOf(m.id)).toBe(0);
    // Other methods still sell.
    const { providerId, paymentId } = await startPayment(m.cookie, "p1", "ideal");
    await choose(providerId, "paid");
    expect(await paymentRow(paymentId)).toMatchObject({ status: "paid", mandate_id: null });
  });

  it("is not offered the bank's first payment that would set up a SEPA mandate", async () => {
    const m = await member({ brandId: FLIRTLOKAAL, language: "nl" });
    await env.DB.prepare("UPDATE users SET directdebit_blocked = 1 WHERE id = ?1").bind(m.id).run();
    // Neither a package to choose nor the bank's button: why, in Dutch.
    for (const path of ["/directdebit", "/directdebit?package=p1"]) {
      const page = await (await get(path, { host: HOST, cookie: `${m.cookie}; lng=nl` })).text();
      expect(page, path).toContain('data-testid="dd-refusal"');
      expect(page, path).toContain("Je account is geblokkeerd");
      expect(page, path).not.toContain('data-testid="dd-bank"');
      expect(page, path).not.toContain('data-testid="packages"');
    }
    expect((await bankFirst(m.cookie)).status).toBe(403);
    expect(await paymentsOf(m.id)).toBe(0);
  });

  it("is not charged on an existing SEPA mandate until the block is lifted", async () => {
    const { m } = await withMandate();
    await env.DB.prepare("UPDATE users SET directdebit_blocked = 1 WHERE id = ?1").bind(m.id).run();
    const n = await paymentsOf(m.id);
    const refused = await repeat(m.cookie);
    expect(await refused.text()).toContain(
      "Je account is geblokkeerd voor incassobetalingen, dus er is niets afgeschreven",
    );
    expect(await paymentsOf(m.id)).toBe(n);
    // Lifted: the same mandate is charged again.
    await env.DB.prepare("UPDATE users SET directdebit_blocked = 0 WHERE id = ?1").bind(m.id).run();
    const ok = await repeat(m.cookie);
    expect(ok.status).toBe(302);
    expect(await paymentsOf(m.id)).toBe(n + 1);
    const last = await env.DB.prepare(
      "SELECT method, sequence_type FROM payments WHERE user_id = ?1 ORDER BY created_at DESC, rowid DESC LIMIT 1",
    )
      .bind(m.id)
      .first();
    expect(last).toEqual({ method: "sepa_directdebit", sequence_type: "recurring" });
  });
});
