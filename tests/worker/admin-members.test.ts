/**
 * The console's members part (decision 177): finding a member, their page, and every
 * support action with its role check and its audit row, through the models that own the rules.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { flushAll, ledgerOf } from "./wallet-support";
import { consoleAdjustCredits, MEMBERS_PAGE, searchMembers } from "../../app/models/admin/members.server";
import { applyCredits, walletBalance, walletLedger } from "../../app/wallet/wallet.server";
import { drainOutbox, outboxRow } from "../../app/wallet/outbox.server";
import { createMember, get, post, sessionCookie } from "./fixtures";
import { OPERATOR_PASSWORD, auditRows, createOperator, operatorCookie } from "./admin-support";

const asRole = async (role: "admin" | "support" | "moderator" | "finance") =>
  operatorCookie((await createOperator(role)).id);

const user = async (id: string) =>
  // users.credits is the wallet's copy (decision 189): flushed before it is read.
  (await flushAll(id)) ??
  env.DB.prepare("SELECT credits, email, status, deleted_at, directdebit_blocked FROM users WHERE id = ?1")
    .bind(id)
    .first<{
      credits: number;
      email: string;
      status: string;
      deleted_at: number | null;
      directdebit_blocked: number;
    }>();
const ledger = async (id: string) =>
  (await ledgerOf(id)).map((r) => ({ delta: r.delta, reason: r.reason, ref_id: r.ref_id }));
const mailsTo = (to: string) =>
  env.DB.prepare('SELECT subject FROM mail_outbox WHERE "to" = ?1')
    .bind(to)
    .all<{ subject: string }>()
    .then((r) => r.results);
const sessionCount = (id: string) =>
  env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?1")
    .bind(id)
    .first<{ n: number }>()
    .then((r) => r!.n);

async function expectLedgerExplains(id: string) {
  const rows = await ledger(id);
  expect(rows.reduce((s, r) => s + r.delta, 0)).toBe((await user(id))!.credits);
}

/** Posts an action on a member's page; returns the response. */
/** An env whose member wallet answers one call (the console's balance check), then is unreachable. */
function walletDownAfterCheck() {
  let calls = 0;
  const real = env.MEMBER_HUB;
  // Every call of an unreachable object rejects (when awaited: a thenable, so no rejection is left unheard).
  const unreachable = new Proxy(
    {},
    {
      get: (_t, p) =>
        p === "then"
          ? undefined
          : // oxlint-disable-next-line unicorn/no-thenable -- meant to be awaited: it rejects only then
            () => ({ then: (_ok: unknown, fail: (e: Error) => void) => fail(new Error("wallet down (injected)")) }),
    },
  );
  return {
    ...env,
    MEMBER_HUB: {
      idFromName: (name: string) => real.idFromName(name),
      get: (id: DurableObjectId) => (calls++ >= 1 ? unreachable : real.get(id)),
    } as unknown as typeof real,
    PAYMENT_CHECKS: { send: async () => {} } as unknown as typeof env.PAYMENT_CHECKS,
  };
}

const act = (memberId: string, form: Record<string, string>, cookie: string) =>
  post(`/admin/members/${memberId}`, form, { cookie });

/** What a confirmed guarded action posts (decision 217): its confirmation and the password again. */
const CONFIRMED = { confirmed: "1", reauth_password: OPERATOR_PASSWORD };

/** One valid form per action (a reason each; the guarded ones confirmed). */
const FORMS: Record<string, Record<string, string>> = {
  credits: { intent: "credits", direction: "grant", amount: "10", reason: "goodwill", ...CONFIRMED },
  change_email: { intent: "change_email", email: "moved-elsewhere@example.com", reason: "lost access" },
  end_sessions: { intent: "end_sessions", reason: "stolen phone" },
  resend_activation: { intent: "resend_activation", reason: "no mail" },
  unblock_directdebit: { intent: "unblock_directdebit", reason: "bank confirmed" },
  notifications_on: { intent: "notifications_on", reason: "asked for it" },
  delete: { intent: "delete", confirm: "yes", reason: "asked by mail", ...CONFIRMED },
};

describe("roles", () => {
  it("a moderator or finance operator can neither open a member nor act on one; nothing changes", async () => {
    const m = await createMember({ credits: 5, status: "not_confirmed" });
    await env.DB.prepare("UPDATE users SET directdebit_blocked = 1 WHERE id = ?1").bind(m.id).run();
    await sessionCookie(m.id);
    for (const role of ["moderator", "finance"] as const) {
      const cookie = await asRole(role);
      expect((await get(`/admin/members/${m.id}`, { cookie })).status).toBe(403);
      expect((await get(`/admin/members?q=${m.email}`, { cookie })).status).toBe(403);
      for (const form of Object.values(FORMS)) expect((await act(m.id, form, cookie)).status, form.intent).toBe(403);
    }
    const after = await user(m.id);
    expect(after).toMatchObject({ credits: 5, email: m.email, deleted_at: null, directdebit_blocked: 1 });
    expect(await sessionCount(m.id)).toBe(1);
    expect(await auditRows(m.id)).toEqual([]);
  });

  it("support opens the member page: account, ledger explaining the balance, payments, sessions", async () => {
    const m = await createMember({ credits: 7, name: "Pagina" });
    await sessionCookie(m.id);
    const res = await get(`/admin/members/${m.id}`, { cookie: await asRole("support") });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Pagina");
    expect(html).toContain("explains the balance");
    expect(html).not.toMatch(/<script/i);
    expect((await get("/admin/members/no-such-member", { cookie: await asRole("support") })).status).toBe(404);
  });
});

describe("finding a member", () => {
  it("by e-mail, name, member id, our payment id and the provider's payment id", async () => {
    const m = await createMember({ name: "Quirinella", email: `quirin-${Date.now()}@find.example` });
    const pay = `pay-find-${Date.now()}`;
    await env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref, status)
       VALUES (?1, ?2, 1, 'p1', 100, 1000, 'EUR', 'ideal', 'sandbox', ?3, 'paid')`,
    )
      .bind(pay, m.id, `tr_${pay}`)
      .run();
    for (const q of [
      m.email,
      `${m.email.split("@")[0]!.toUpperCase()}@`,
      "Quirinel",
      "quirinel",
      m.id,
      pay,
      `tr_${pay}`,
    ]) {
      const found = await searchMembers(env.DB, q);
      expect(
        found.hits.map((h) => h.id),
        q,
      ).toContain(m.id);
    }
    const byPayment = await searchMembers(env.DB, pay);
    expect(byPayment.hits[0]).toMatchObject({ id: m.id, via: "payment" });
    expect((await searchMembers(env.DB, "nobody-like-this@nowhere.example")).hits).toEqual([]);
    // Through the page, as support: the payment id finds the member.
    const res = await get(`/admin/members?q=${encodeURIComponent(`tr_${pay}`)}`, { cookie: await asRole("support") });
    expect(await res.text()).toContain(`/admin/members/${m.id}`);
  });

  it("the list shows each member's wallet balance, not D1's copy still waiting for a chat spend", async () => {
    const m = await createMember({ name: "Walletlisted", credits: 5 });
    await applyCredits(env, m.id, { key: `message:list:${m.id}`, delta: -2, reason: "message" });
    const html = await (
      await get(`/admin/members?q=${encodeURIComponent(m.email)}`, { cookie: await asRole("support") })
    ).text();
    const row = html.slice(html.indexOf(`<code class="a-code">${m.id}</code>`));
    expect(row.slice(0, row.indexOf("</tr>"))).toMatch(/<td data-label="Credits" class="a-num">3<\/td>/);
  });

  it("pages on with a keyset: no member twice, none left out", async () => {
    const stamp = Date.now().toString(36);
    const n = MEMBERS_PAGE + 7;
    const values = Array.from({ length: n }, (_, i) => i);
    await env.DB.batch(
      values.flatMap((i) => [
        env.DB.prepare("INSERT INTO users (id, brand_id, email, password_hash) VALUES (?1, 1, ?2, 'x')").bind(
          `kp-${stamp}-${i}`,
          `kp-${stamp}-${i}@page.example`,
        ),
        env.DB.prepare(
          "INSERT INTO profiles (user_id, name, gender, date_of_birth, country) VALUES (?1, ?2, 'female', '1990-01-01', 'NL')",
        ).bind(`kp-${stamp}-${i}`, `Kpage${stamp} ${i % 3}`),
      ]),
    );
    for (const q of [`Kpage${stamp}`, `kpage${stamp} 1`.replace("kpage", "Kpage").slice(0, -2)]) {
      const first = await searchMembers(env.DB, q);
      expect(first.hits).toHaveLength(MEMBERS_PAGE);
      expect(first.next).not.toBeNull();
      const second = await searchMembers(env.DB, q, first.next);
      expect(second.next).toBeNull();
      const ids = [...first.hits, ...second.hits].map((h) => h.id);
      expect(new Set(ids).size, q).toBe(n);
    }
  });
});

describe("credits", () => {
  it("support grants credits through the ledger with its audit row; the member's balance shows it", async () => {
    const m = await createMember({ credits: 5 });
    const support = await createOperator("support");
    const res = await act(
      m.id,
      { intent: "credits", direction: "grant", amount: "40", reason: "payment went through, no credits", ...CONFIRMED },
      await operatorCookie(support.id),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/admin/members/${m.id}?done=granted`);
    expect((await user(m.id))!.credits).toBe(45);
    expect((await ledger(m.id)).at(-1)).toEqual({ delta: 40, reason: "adjustment", ref_id: `op:${support.id}` });
    await expectLedgerExplains(m.id);
    const audit = await auditRows(m.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "member.credits_grant",
      operatorId: support.id,
      role: "support",
      targetType: "member",
      reason: "payment went through, no credits",
      before: { credits: 5 },
      after: { delta: 40 },
    });
    const page = await (await get(`/admin/members/${m.id}?done=granted`, { cookie: await asRole("support") })).text();
    expect(page).toContain("Credits granted.");
    // The member sees the balance on their own pages.
    const own = await (await get("/api/user.php", { cookie: await sessionCookie(m.id) })).text();
    expect(own).toContain("45");
  });

  it("a take below zero is refused with nothing changed (no ledger row, no audit row); a take within the balance works", async () => {
    const m = await createMember({ credits: 12 });
    const cookie = await asRole("support");
    const before = await ledger(m.id);
    const res = await act(m.id, { intent: "credits", direction: "take", amount: "13", reason: "abuse" }, cookie);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Refused: the member has fewer than 13 credits. Nothing was changed.");
    expect((await user(m.id))!.credits).toBe(12);
    expect(await ledger(m.id)).toEqual(before);
    expect(await auditRows(m.id)).toEqual([]);

    const ok = await act(m.id, { intent: "credits", direction: "take", amount: "12", reason: "abuse" }, cookie);
    expect(ok.status).toBe(302);
    expect((await user(m.id))!.credits).toBe(0);
    expect((await ledger(m.id)).at(-1)).toMatchObject({ delta: -12, reason: "adjustment" });
    await expectLedgerExplains(m.id);
    expect((await auditRows(m.id)).map((r) => r.action)).toEqual(["member.credits_take"]);
  });

  it("a grant whose wallet fails after its audit row is applied once when the wallet comes back: never an unaudited ledger row", async () => {
    const m = await createMember({ credits: 5 });
    const support = await createOperator("support");
    await walletBalance(env, m.id);
    // The wallet answers the check, then is down: the audit row and its outbox row are written, no ledger row.
    const down = walletDownAfterCheck();
    expect(await consoleAdjustCredits(down, { id: support.id, role: "support" }, m.id, 7, "goodwill")).toEqual({
      ok: true,
    });
    const audit = await auditRows(m.id);
    expect(audit).toHaveLength(1);
    const key = (audit[0]!.after as { key: string }).key;
    expect(key).toMatch(/^grant:/);
    expect(audit[0]).toMatchObject({ action: "member.credits_grant", before: { credits: 5 }, after: { delta: 7 } });
    expect(await walletBalance(env, m.id)).toBe(5);
    expect((await outboxRow(env, m.id, key))!.appliedAt).toBeNull();
    // Back: the retry (queue or cron) applies it by the audit row's key, once however often it runs.
    for (let i = 0; i < 2; i++) await drainOutbox(env, { userId: m.id });
    expect(await walletBalance(env, m.id)).toBe(12);
    expect((await walletLedger(env, m.id)).filter((r) => r.key === key)).toHaveLength(1);
    expect((await outboxRow(env, m.id, key))!.result).toBe(7);
    await expectLedgerExplains(m.id);
    expect(await auditRows(m.id)).toHaveLength(1);
  });

  it("the audit list says when a take waits for the wallet, and when the wallet refused it (spent meanwhile)", async () => {
    const m = await createMember({ credits: 10 });
    const support = await createOperator("support");
    const admin = await operatorCookie((await createOperator("admin")).id);
    await walletBalance(env, m.id);
    const take = await consoleAdjustCredits(
      walletDownAfterCheck(),
      { id: support.id, role: "support" },
      m.id,
      -8,
      "abuse",
    );
    expect(take).toEqual({ ok: true });
    const page = async () => (await get(`/admin/audit?targetId=${m.id}`, { cookie: admin })).text();
    expect(await page()).toContain("waiting for the wallet");
    // The member spends 5 before the wallet is back: the take of 8 no longer fits and is refused.
    expect(await applyCredits(env, m.id, { key: `photo:${m.id}`, delta: -5, reason: "photo" })).toMatchObject({
      ok: true,
    });
    await drainOutbox(env, { userId: m.id });
    expect(await walletBalance(env, m.id)).toBe(5);
    const html = await page();
    expect(html).toContain("refused by the wallet");
    expect(html).not.toContain("waiting for the wallet");
    expect(await auditRows(m.id)).toHaveLength(1);
  });

  it("bad input is refused with a clear message and changes nothing", async () => {
    const m = await createMember({ credits: 3 });
    const cookie = await asRole("admin");
    for (const [form, message] of [
      [{ intent: "credits", direction: "grant", amount: "10", reason: "" }, "Give a reason"],
      [{ intent: "credits", direction: "grant", amount: "-5", reason: "goodwill" }, "whole number of credits"],
      [{ intent: "credits", direction: "grant", amount: "1.5", reason: "goodwill" }, "whole number of credits"],
      [{ intent: "credits", direction: "grant", amount: "99999999", reason: "goodwill" }, "whole number of credits"],
      [{ intent: "change_email", email: "not-an-address", reason: "lost" }, "valid e-mail address"],
      [{ intent: "delete", reason: "asked" }, "Tick the box"],
      [{ intent: "drop_tables", reason: "x".repeat(10) }, "not known"],
    ] as const) {
      const res = await act(m.id, form, cookie);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(message);
    }
    expect((await user(m.id))!.credits).toBe(3);
    expect(await auditRows(m.id)).toEqual([]);
  });
});

describe("account actions", () => {
  it("change the e-mail address: the new address gets the confirmation (the old one the undo link once it is used); audited", async () => {
    const m = await createMember();
    const cookie = await asRole("support");
    const to = `new-${Date.now()}@change.example`;
    const res = await act(m.id, { intent: "change_email", email: to, reason: "lost access" }, cookie);
    expect(res.status).toBe(302);
    expect(await mailsTo(to)).toHaveLength(1);
    // The old address hears of it when the change is done (decision 238), not before.
    expect(await mailsTo(m.email)).toHaveLength(0);
    const [row] = await auditRows(m.id);
    expect(row).toMatchObject({ action: "member.change_email", before: { email: m.email }, after: { pending: to } });
    // An address that belongs to another account of the brand is refused, nothing sent or logged.
    const other = await createMember();
    const taken = await act(m.id, { intent: "change_email", email: other.email, reason: "typo" }, cookie);
    expect(await taken.text()).toContain("belongs to another account");
    expect(await mailsTo(other.email)).toHaveLength(0);
    expect(await auditRows(m.id)).toHaveLength(1);
  });

  it("end all sessions: every session of the member goes, audited", async () => {
    const m = await createMember();
    await sessionCookie(m.id);
    await sessionCookie(m.id);
    const res = await act(m.id, FORMS.end_sessions!, await asRole("support"));
    expect(res.status).toBe(302);
    expect(await sessionCount(m.id)).toBe(0);
    expect((await auditRows(m.id)).map((r) => r.action)).toEqual(["member.end_sessions"]);
  });

  it("resend the activation mail to a member who is not confirmed; a confirmed one is refused", async () => {
    const m = await createMember({ status: "not_confirmed" });
    const cookie = await asRole("support");
    expect((await act(m.id, FORMS.resend_activation!, cookie)).status).toBe(302);
    expect(await mailsTo(m.email)).toHaveLength(1);
    expect((await auditRows(m.id)).map((r) => r.action)).toEqual(["member.resend_activation"]);
    const confirmed = await createMember({ status: "confirmed" });
    const res = await act(confirmed.id, FORMS.resend_activation!, cookie);
    expect(await res.text()).toContain("already confirmed");
    expect(await auditRows(confirmed.id)).toEqual([]);
  });

  it("unblock direct debit once: a repeat changes and logs nothing", async () => {
    const m = await createMember();
    await env.DB.prepare("UPDATE users SET directdebit_blocked = 1 WHERE id = ?1").bind(m.id).run();
    const cookie = await asRole("support");
    expect((await act(m.id, FORMS.unblock_directdebit!, cookie)).status).toBe(302);
    expect((await user(m.id))!.directdebit_blocked).toBe(0);
    const again = await act(m.id, FORMS.unblock_directdebit!, cookie);
    expect(await again.text()).toContain("not blocked");
    expect((await auditRows(m.id)).map((r) => r.action)).toEqual(["member.directdebit_unblock"]);
  });

  it("switch notifications back on, also after a bounce", async () => {
    const m = await createMember();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO notifications_disabled (user_id, type, reason) VALUES (?1, 'new_message', 'bounce')",
      ).bind(m.id),
      env.DB.prepare("INSERT INTO notifications_disabled (user_id, type, reason) VALUES (?1, 'like', 'user')").bind(
        m.id,
      ),
    ]);
    expect((await act(m.id, FORMS.notifications_on!, await asRole("support"))).status).toBe(302);
    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM notifications_disabled WHERE user_id = ?1")
      .bind(m.id)
      .first<{ n: number }>();
    expect(left!.n).toBe(0);
    const [row] = await auditRows(m.id);
    expect(row).toMatchObject({ action: "member.notifications_on" });
    expect((row!.before as { off: unknown[] }).off).toHaveLength(2);
  });

  it("delete the account through the member's own path: hidden, sessions ended, reactivation mailed; then no more changes", async () => {
    const m = await createMember({ credits: 4 });
    await sessionCookie(m.id);
    const cookie = await asRole("support");
    expect((await act(m.id, FORMS.delete!, cookie)).status).toBe(302);
    const after = await user(m.id);
    expect(after!.deleted_at).not.toBeNull();
    expect(await sessionCount(m.id)).toBe(0);
    expect(await mailsTo(m.email)).toHaveLength(1);
    const reactivate = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM tokens WHERE user_id = ?1 AND kind = 'reactivate'",
    )
      .bind(m.id)
      .first<{ n: number }>();
    expect(reactivate!.n).toBe(1);
    const grant = await act(m.id, FORMS.credits!, cookie);
    expect(await grant.text()).toContain("This account is deleted");
    expect((await user(m.id))!.credits).toBe(4);
    expect((await auditRows(m.id)).map((r) => r.action)).toEqual(["member.delete"]);
  });
});
