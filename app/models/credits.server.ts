/**
 * What things cost in credits (pricesFor: the one owner of prices), and the statements of the old D1
 * ledger.
 *
 * The balance and the ledger no longer live here: they are the member's wallet, in their MemberHub
 * object (decision 189, app/models/wallet.server.ts); D1's users.credits is a copy the wallet writes
 * and credit_ledger is moved into the wallets, then dropped by a later migration (decision 194). The
 * statements below still write the old shape (a guarded debit `credits >= cost` and its ledger row in
 * one batch): only the bench's D1 baseline (tests/bench/workerd/) and test fixtures call them.
 */
import { nowS } from "~/lib/dates";
import type { schema } from "../../db/client";
import type { Brand } from "./brand.server";

export type CreditReason = (typeof schema.creditLedger.$inferSelect)["reason"];

// ---------------------------------------------------------------------------------------------
// Prices

export type PriceSettings = Pick<Brand, "minimumMessageCosts" | "messageCredits" | "giftCredits" | "photoCredits">;
export interface Prices {
  message: number;
  gift: number;
  photo: number;
}

/**
 * What a thing costs in credits on a brand for a member in `country` (docs/product.md §3 and §9): a
 * message costs minimum_message_costs[country].costs when that is a whole number >= 0, else the
 * brand's message_credits; a gift gift_credits, a photo photo_credits. The one owner of prices:
 * the chat binds its result into the charge, the pages show it.
 */
export function pricesFor(brand: PriceSettings, country: string | null | undefined): Prices {
  const c = country ? brand.minimumMessageCosts?.[country.toUpperCase()]?.costs : undefined;
  return {
    message: Number.isInteger(c) && c! >= 0 ? c! : brand.messageCredits,
    gift: brand.giftCredits,
    photo: brand.photoCredits,
  };
}

// ---------------------------------------------------------------------------------------------
// Statements

/** An amount computed inside the statement (e.g. a price read from the brand), evaluated in the same transaction. */
export type SqlAmount = { sql: string };

const amount = (v: number | SqlAmount, param: string) => {
  if (typeof v === "number") {
    if (!Number.isInteger(v)) throw new Error(`bad amount ${v}`);
    return { expr: param, value: v };
  }
  // The parameter is bound to null so the statement's parameter count stays fixed.
  return { expr: `COALESCE(${param}, (${v.sql}))`, value: null };
};

/**
 * Subtracts `cost` from the member's balance when it covers the cost and `guard` (an extra SQL
 * condition such as "not sent already") holds. Changes 1 row if charged, 0 otherwise.
 * `guard` may use parameters from ?3 on; pass their values in `guard.params`.
 */
export function debitStatement(
  db: D1Database,
  userId: string,
  cost: number | SqlAmount,
  guard?: { sql: string; params: unknown[] },
) {
  if (typeof cost === "number" && cost < 0) throw new Error(`bad cost ${cost}`);
  const c = amount(cost, "?2");
  const sql = `UPDATE users SET credits = credits - ${c.expr} WHERE id = ?1 AND deleted_at IS NULL AND credits >= ${c.expr}${guard ? ` AND (${guard.sql})` : ""}`;
  return (
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: the debit never overdraws (credits >= cost) and carries the caller's guard; the statements after it run on changes() = 1
      .prepare(sql)
      .bind(userId, c.value, ...(guard?.params ?? []))
  );
}

/**
 * The ledger row of a change, written only if the statement just before it in the batch changed a
 * row (`changes() = 1`). `delta` and `refIdSql` may be SQL (e.g. read from the row just stored),
 * using parameters from ?6 on, whose values go in `params`.
 */
export function ledgerStatement(
  db: D1Database,
  o: {
    userId: string;
    delta: number | SqlAmount;
    reason: CreditReason;
    refId?: string | null;
    refIdSql?: string;
    now?: number;
    params?: unknown[];
  },
) {
  const ref = o.refIdSql ? `COALESCE(?4, (${o.refIdSql}))` : "?4";
  const d = amount(o.delta, "?2");
  return (
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: the ledger row is written only when the statement before it changed a row (changes() = 1)
      .prepare(
        `INSERT INTO credit_ledger (user_id, delta, reason, ref_id, created_at) SELECT ?1, ${d.expr}, ?3, ${ref}, ?5 WHERE changes() = 1`,
      )
      .bind(o.userId, d.value, o.reason, o.refId ?? null, o.now ?? nowS(), ...(o.params ?? []))
  );
}

/**
 * Statements adding credits (sign-up, purchase, refund, adjustment) with their ledger row. With
 * `afterChange`, nothing is added unless the statement just before changed a row (e.g. a payment's
 * guarded `status = 'open'` → 'paid'), so a grant is applied once however often it is retried.
 * `premium` also sets paid_user in the same statement (the first purchase makes a member premium).
 */
export function grantStatements(
  db: D1Database,
  userId: string,
  credits: number,
  reason: CreditReason,
  o: { refId?: string | null; afterChange?: boolean; premium?: boolean; now?: number } = {},
) {
  if (!Number.isInteger(credits) || credits <= 0) throw new Error(`bad credits ${credits}`);
  return [
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: a grant with afterChange applies only after the guarded status change before it (changes() = 1); its ledger row follows on changes() = 1
      .prepare(
        `UPDATE users SET credits = credits + ?2${o.premium ? ", paid_user = 1" : ""} WHERE id = ?1${o.afterChange ? " AND changes() = 1" : ""}`,
      )
      .bind(userId, credits),
    ledgerStatement(db, { userId, delta: credits, reason, refId: o.refId, now: o.now }),
  ];
}
