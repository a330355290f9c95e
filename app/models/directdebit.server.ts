/**
 * SEPA direct debit (decision 101; docs/product/data.md §3, docs/product/validation.md §5 and §8): the member fills in the form, gets a
 * code by SMS, and with the right code the provider makes a customer, a direct debit mandate and a
 * payment of the package on it, which then stays pending until the bank has collected it.
 *
 * - A member flagged `directdebit_blocked` is refused ('Your account is blocked for direct debit payments.').
 * - Open, pending and paid direct debits of the calendar month (UTC) plus the new one may not pass the
 *   brand's `directdebit_monthly_limit_cents`.
 * - The code is 6 digits, stored only as an HMAC keyed with the session secret, valid CODE_TTL_S,
 *   at most MAX_ATTEMPTS wrong tries (then the request is spent), a new code at most every
 *   RESEND_AFTER_S and MAX_SENDS times per request, and SMS_PER_DAY SMS per member a day.
 * - The price is the package's, less the member's active discount (the welcome offer), fixed
 *   when the form is sent; the payment records the code, redeemed when the bank has collected (decision 114).
 * - Verification is one guarded batch: the first right code flips `open` → `verified` once; a replay,
 *   or twenty at once, finds it no longer open.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { TFunction } from "i18next";
import { nowS } from "~/lib/dates";
import type { Env } from "~/lib/env";
import { randomId } from "~/lib/password";
import { paymentProvider } from "~/lib/payments/index.server";
import { PaymentProviderError } from "~/lib/payments/provider";
import { takeDailyQuota } from "./accounts/common.server";
import type { BrandWithCompany } from "./brand.server";
import { CODE_LENGTH, directDebitCountry, maskIban, maskMobile, type DirectDebitDetails } from "./directdebit-rules";
import {
  claimGuardSql,
  codeForPrices,
  codeLookupStatement,
  evaluateCode,
  type AppliedCode,
  type CodeLookup,
  type DiscountMember,
} from "./discounts.server";
import { DIRECT_DEBIT_METHOD } from "./payment-rules";
import { chargeMandate } from "./payments/recurring.server";
import { directDebitFirstMethod } from "./payments/methods.server";
import { ensureCustomer, startCheckout, type CheckoutMember, type CheckoutResult } from "./payments/checkout.server";
import { noHoldSql } from "./payments/chargebacks.server";
import { packageRow, paymentTarget } from "./payments/common.server";
import { packagesStatement } from "./shop.server";
import { smsSenderFor, type SmsSender } from "./sms.server";
import { and, eq, inArray, isNull, lt, ne } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { logError } from "~/lib/log.server";

const R = schema.directdebitRequests;

export const CODE_TTL_S = 10 * 60;
export const MAX_ATTEMPTS = 5;
export const RESEND_AFTER_S = 60;
export const MAX_SENDS = 3;
export const SMS_PER_DAY = 6;
/** A request left unfinished this long is no longer shown; the member starts again. */
export const REQUEST_TTL_S = 60 * 60;
export { DIRECT_DEBIT_METHOD };
/** SEPA collects euros only: a brand selling in another currency does not offer direct debit. */
export const DIRECT_DEBIT_CURRENCY = "EUR";
type DirectDebitBrand = Pick<BrandWithCompany, "id" | "directdebitMonthlyLimitCents" | "currency" | "welcomeDiscountS">;

type DirectDebitEnv = Pick<
  Env,
  "DB" | "ENVIRONMENT" | "SESSION_SECRET" | "TWILIO_ACCOUNT_SID" | "TWILIO_AUTH_TOKEN" | "SMS_FROM"
>;

export interface PackageRow {
  id: string;
  tier: string;
  credits: number;
  price_cents: number;
  currency: string;
}

/** First second of the calendar month (UTC) that `now` is in. */
export function monthStart(now: number): number {
  const d = new Date(now * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
}

export type Eligibility =
  | { ok: true; usedCents: number; limitCents: number }
  | { ok: false; reason: "blocked" | "limit" | "country"; usedCents: number; limitCents: number };

type EligibilityRow = { blocked: number; used: number; offered: number };

/**
 * Cents of direct debit this month for member ?1 (month start ?2, method ?3): open, pending and paid
 * direct debit payments (payments_user index), plus requests already handed to the provider whose
 * payment row is not written yet, so two confirmations at once cannot both slip under the limit.
 */
const USED_SQL = `(SELECT COALESCE(SUM(p.amount_cents), 0) FROM payments p
    WHERE p.user_id = ?1 AND p.created_at >= ?2 AND p.method = ?3 AND p.status IN ('open', 'pending', 'paid'))
  + (SELECT COALESCE(SUM(r.amount_cents), 0) FROM directdebit_requests r
    WHERE r.user_id = ?1 AND r.created_at >= ?2 - ${REQUEST_TTL_S} AND r.status = 'done' AND r.payment_id IS NULL)`;

/**
 * The member's flag, what they paid by direct debit this month, and whether the payment country
 * offers direct debit (the per-country method table, as /credits offers it: its own rows, else "*").
 */
function eligibilityStatement(db: D1Database, userId: string, paymentCountry: string, now: number) {
  return (
    db
      // oxlint-disable-next-line no-restricted-properties -- goes into the direct debit page's raw batch beside shop's packagesStatement and discounts' code lookup
      .prepare(
        `SELECT (u.directdebit_blocked OR NOT ${noHoldSql("u.id")}) AS blocked, ${USED_SQL} AS used,
              EXISTS (SELECT 1 FROM payment_methods pm WHERE pm.method = ?3 AND pm.enabled = 1 AND pm.country =
                (SELECT CASE WHEN EXISTS (SELECT 1 FROM payment_methods WHERE country = ?4) THEN ?4 ELSE '*' END)) AS offered
         FROM users u WHERE u.id = ?1`,
      )
      .bind(userId, monthStart(now), DIRECT_DEBIT_METHOD, paymentCountry)
  );
}

function judge(
  row: EligibilityRow | undefined | null,
  brand: DirectDebitBrand,
  amountCents: number,
  paymentCountry: string,
): Eligibility {
  const limitCents = brand.directdebitMonthlyLimitCents;
  const usedCents = row?.used ?? 0;
  if (!row || row.blocked) return { ok: false, reason: "blocked", usedCents, limitCents };
  if (usedCents + amountCents > limitCents) return { ok: false, reason: "limit", usedCents, limitCents };
  if (!row.offered || !directDebitCountry(paymentCountry) || brand.currency !== DIRECT_DEBIT_CURRENCY)
    return { ok: false, reason: "country", usedCents, limitCents };
  return { ok: true, usedCents, limitCents };
}

/** May this member pay `amountCents` by direct debit now? */
export async function eligibility(
  db: D1Database,
  brand: DirectDebitBrand,
  userId: string,
  amountCents: number,
  paymentCountry: string,
  now = nowS(),
): Promise<Eligibility> {
  const row = await eligibilityStatement(db, userId, paymentCountry, now).first<EligibilityRow>();
  return judge(row, brand, amountCents, paymentCountry);
}

/** A package at its euro price on the brand (SEPA); one-time packages (the try-out) are never bought on a mandate. */
export async function getPackageRow(db: D1Database, brandId: number, id: string): Promise<PackageRow | null> {
  const row = await packagesStatement(db, { id: brandId, currency: DIRECT_DEBIT_CURRENCY }, id).first<
    PackageRow & { one_time: number }
  >();
  return row && !row.one_time ? row : null;
}

// ---------------------------------------------------------------------------------------------
// The member's active discount (the welcome offer), as at the card checkout

/**
 * The statement reading the code of the member's active discount as of `at` (null without one):
 * a direct debit's price is fixed when the member sends the form, so it is judged as of that moment.
 */
function activeCodeStatement(db: D1Database, brand: DirectDebitBrand, member: DiscountMember, at: number) {
  const chosen = codeForPrices(member, brand, null, at);
  return chosen ? codeLookupStatement(db, chosen.code, member.id) : null;
}

/** The discount a package gets by direct debit from a looked-up code, or null (none, used, held by another payment…). */
type PricedPackage = { id: string; price_cents: number; currency: string };

function discountFor(
  lookup: CodeLookup | null,
  o: { brand: DirectDebitBrand; member: DiscountMember; pkg: PricedPackage; country: string; at: number },
): AppliedCode | null {
  if (!lookup) return null;
  const check = evaluateCode(lookup, {
    member: o.member,
    brand: o.brand,
    packageId: o.pkg.id,
    priceCents: o.pkg.price_cents,
    currency: o.pkg.currency,
    country: o.country,
    method: DIRECT_DEBIT_METHOD,
    now: o.at,
  });
  return check.ok ? check.code : null;
}

async function activeDiscountFor(
  db: D1Database,
  o: { brand: DirectDebitBrand; member: DiscountMember; pkg: PricedPackage; country: string; at: number },
) {
  const lookup = activeCodeStatement(db, o.brand, o.member, o.at);
  return discountFor(lookup ? await lookup.first<CodeLookup>() : null, o);
}

type RequestRow = {
  id: string;
  package_id: string;
  amount_cents: number;
  currency: string;
  iban: string;
  mobile: string;
  status: "open" | "verified";
  attempts: number;
  sends: number;
  last_sent_at: number;
  code_expires_at: number;
};

function currentRequestStatement(db: D1Database, userId: string, now: number) {
  return (
    db
      // oxlint-disable-next-line no-restricted-properties -- goes into the direct debit page's raw batch beside shop's packagesStatement and discounts' code lookup
      .prepare(
        `SELECT id, package_id, amount_cents, currency, iban, mobile, status, attempts, sends, last_sent_at, code_expires_at
         FROM directdebit_requests WHERE user_id = ?1 AND status IN ('open', 'verified') AND created_at > ?2
        ORDER BY created_at DESC LIMIT 1`,
      )
      .bind(userId, now - REQUEST_TTL_S)
  );
}

function toCurrent(row: RequestRow, now: number) {
  return {
    id: row.id,
    packageId: row.package_id,
    amountCents: row.amount_cents,
    currency: row.currency,
    iban: maskIban(row.iban),
    mobile: maskMobile(row.mobile),
    status: row.status,
    spent: row.status === "open" && row.attempts >= MAX_ATTEMPTS,
    canResend: row.sends < MAX_SENDS,
    resendInS: Math.max(0, row.last_sent_at + RESEND_AFTER_S - now),
  };
}
export type CurrentRequest = ReturnType<typeof toCurrent>;

/**
 * Everything /directdebit shows, in one D1 round trip: the member's unfinished request (then its
 * package), else the chosen package; the packages to choose from; whether the member may pay.
 */
export async function directDebitPage(
  db: D1Database,
  brand: DirectDebitBrand,
  member: DiscountMember,
  packageId: string | null,
  paymentCountry: string,
  now = nowS(),
) {
  const [current, packages, elig, code] = await db.batch([
    currentRequestStatement(db, member.id, now),
    packagesStatement(db, { id: brand.id, currency: DIRECT_DEBIT_CURRENCY }),
    eligibilityStatement(db, member.id, paymentCountry, now),
    // oxlint-disable-next-line no-restricted-properties -- placeholder in the direct debit page's raw batch where no discount code is read
    activeCodeStatement(db, brand, member, now) ?? db.prepare("SELECT NULL AS none WHERE 0"),
  ]);
  const request = (current!.results as RequestRow[])[0];
  const lookup = (code!.results[0] as CodeLookup | undefined) ?? null;
  // Each package at what it costs this member by direct debit: the price, or less with their active discount.
  const all = (packages!.results as PackageRow[]).map((p) => ({
    ...p,
    discount: discountFor(lookup, { brand, member, pkg: p, country: paymentCountry, at: now }),
  }));
  const chosen = all.find((p) => p.id === (request?.package_id ?? packageId)) ?? null;
  // A started request keeps the amount it was sent with (the one its SMS and mandate text name).
  const pkg =
    chosen && request
      ? { ...chosen, discount: request.amount_cents < chosen.price_cents ? chosen.discount : null }
      : chosen;
  const amountCents = request?.amount_cents ?? pkg?.discount?.finalCents ?? pkg?.price_cents ?? 0;
  return {
    request: request ? toCurrent(request, now) : null,
    packages: all,
    pkg: pkg ? { ...pkg, amountCents } : null,
    eligibility: judge((elig!.results as EligibilityRow[])[0], brand, amountCents, paymentCountry),
  };
}

// ---------------------------------------------------------------------------------------------
// Codes

/** A uniformly random 6-digit code (rejection sampling: no modulo bias). */
export function newCode(): string {
  const limit = 4_294_000_000; // the largest multiple of 10^6 below 2^32
  for (;;) {
    const [n] = crypto.getRandomValues(new Uint32Array(1));
    if (n! < limit) return String(n! % 10 ** CODE_LENGTH).padStart(CODE_LENGTH, "0");
  }
}

/** HMAC-SHA256 of the code bound to its request, keyed with the session secret: a stolen table reveals no code. */
export async function codeHash(secret: string, requestId: string, code: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = await crypto.subtle.sign("HMAC", key, enc.encode(`${requestId}:${code}`));
  return btoa(String.fromCharCode(...new Uint8Array(mac)));
}

function smsText(t: TFunction, brandName: string, code: string) {
  return t("sms.code", { brand: brandName, code, minutes: CODE_TTL_S / 60 });
}

// ---------------------------------------------------------------------------------------------
// The form, then the code

export type StartResult =
  | { ok: true; requestId: string }
  | {
      ok: false;
      reason: "blocked" | "limit" | "country" | "tooManySms" | "mobileUnreachable" | "smsFailed" | "notOffered";
    };

/**
 * Checks the member may pay, stores the details with a fresh code (any earlier open request of the
 * member is cancelled: one at a time) and sends the code by SMS in the member's language.
 */
export async function startDirectDebit(
  env: DirectDebitEnv,
  o: {
    brand: BrandWithCompany;
    member: DiscountMember;
    pkg: PackageRow;
    details: DirectDebitDetails;
    paymentCountry: string;
    t: TFunction;
    sender?: SmsSender;
    now?: number;
  },
): Promise<StartResult> {
  // The typed IBAN proves nothing about who owns the account: only where Mollie approved this brand's form.
  if (!o.brand.sepaIbanForm) return { ok: false, reason: "notOffered" };
  const now = o.now ?? nowS();
  const userId = o.member.id;
  // The price is fixed here, with the member's active discount: the SMS step and the mandate name this amount.
  const discount = await activeDiscountFor(env.DB, {
    brand: o.brand,
    member: o.member,
    pkg: o.pkg,
    country: o.paymentCountry,
    at: now,
  });
  const amountCents = discount ? discount.finalCents : o.pkg.price_cents;
  const check = await eligibility(env.DB, o.brand, userId, amountCents, o.paymentCountry, now);
  if (!check.ok) return { ok: false, reason: check.reason };
  if (!(await takeDailyQuota(env.DB, `dd_sms:${userId}`, SMS_PER_DAY, now))) return { ok: false, reason: "tooManySms" };

  const id = randomId();
  const code = newCode();
  const d = o.details;
  await env.DB.batch([
    // oxlint-disable-next-line no-restricted-properties -- guards: open → canceled only from open, in the same batch as the new request's insert (one open request per member)
    env.DB.prepare("UPDATE directdebit_requests SET status = 'canceled' WHERE user_id = ?1 AND status = 'open'").bind(
      userId,
    ),
    // oxlint-disable-next-line no-restricted-properties -- same batch as the guarded cancel of the member's earlier open request (one open request per member)
    env.DB.prepare(
      `INSERT INTO directdebit_requests (id, user_id, brand_id, package_id, amount_cents, currency, holder, iban, country, street,
         house_number, postal_code, city, mobile, code_hash, code_expires_at, last_sent_at, created_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?17)`,
    ).bind(
      id,
      userId,
      o.brand.id,
      o.pkg.id,
      amountCents,
      o.pkg.currency,
      d.holder,
      d.iban,
      o.paymentCountry,
      d.street,
      d.houseNumber,
      d.postalCode,
      d.city,
      d.mobile,
      await codeHash(env.SESSION_SECRET, id, code),
      now + CODE_TTL_S,
      now,
    ),
  ]);
  const sent = await (o.sender ?? smsSenderFor(env)).send({
    brandId: o.brand.id,
    to: d.mobile,
    body: smsText(o.t, o.brand.name, code),
  });
  if (!sent.ok) {
    await getDb(env.DB).update(R).set({ status: "canceled" }).where(eq(R.id, id));
    return {
      ok: false,
      reason:
        sent.error === "invalid_number" || sent.error === "unreachable" || sent.error === "rejected"
          ? "mobileUnreachable"
          : "smsFailed",
    };
  }
  return { ok: true, requestId: id };
}

export type ResendResult = { ok: true } | { ok: false; reason: "notFound" | "wait" | "tooManySms" | "smsFailed" };

/** A new code for the member's open request (the old one stops working), throttled. */
export async function resendCode(
  env: DirectDebitEnv,
  o: { brand: BrandWithCompany; userId: string; requestId: string; t: TFunction; sender?: SmsSender; now?: number },
): Promise<ResendResult> {
  const now = o.now ?? nowS();
  const code = newCode();
  // The guard makes 20 clicks at once send one SMS: only one UPDATE finds last_sent_at old enough.
  // oxlint-disable-next-line no-restricted-properties -- guards: RETURNING claims the send: of racing clicks only one UPDATE finds last_sent_at old enough, so one SMS
  const row = await env.DB.prepare(
    `UPDATE directdebit_requests SET code_hash = ?4, code_expires_at = ?5, attempts = 0, sends = sends + 1, last_sent_at = ?3
      WHERE id = ?1 AND user_id = ?2 AND status = 'open' AND sends < ?6 AND last_sent_at <= ?3 - ?7 AND created_at > ?3 - ?8
      RETURNING mobile`,
  )
    .bind(
      o.requestId,
      o.userId,
      now,
      await codeHash(env.SESSION_SECRET, o.requestId, code),
      now + CODE_TTL_S,
      MAX_SENDS,
      RESEND_AFTER_S,
      REQUEST_TTL_S,
    )
    .first<{ mobile: string }>();
  if (!row) {
    const open = await getDb(env.DB)
      .select({ sends: R.sends })
      .from(R)
      .where(and(eq(R.id, o.requestId), eq(R.userId, o.userId), eq(R.status, "open")))
      .get();
    if (!open) return { ok: false, reason: "notFound" };
    return { ok: false, reason: open.sends >= MAX_SENDS ? "tooManySms" : "wait" };
  }
  if (!(await takeDailyQuota(env.DB, `dd_sms:${o.userId}`, SMS_PER_DAY, now)))
    return { ok: false, reason: "tooManySms" };
  const sent = await (o.sender ?? smsSenderFor(env)).send({
    brandId: o.brand.id,
    to: row.mobile,
    body: smsText(o.t, o.brand.name, code),
  });
  return sent.ok ? { ok: true } : { ok: false, reason: "smsFailed" };
}

export type VerifyResult = "ok" | "invalid" | "expired" | "tooMany" | "used" | "notFound";

/**
 * Checks a code. One batch: the right code, in time, within the attempts, flips the open request to
 * verified (once); otherwise the attempt is counted. Then the request's state says why it failed.
 */
export async function verifyCode(
  env: DirectDebitEnv,
  userId: string,
  requestId: string,
  code: string,
  now = nowS(),
): Promise<VerifyResult> {
  const hash = await codeHash(env.SESSION_SECRET, requestId, code);
  const [flip, , state] = await env.DB.batch([
    // oxlint-disable-next-line no-restricted-properties -- guards: open → verified only with the right unexpired code and attempts left
    env.DB.prepare(
      `UPDATE directdebit_requests SET status = 'verified'
        WHERE id = ?1 AND user_id = ?2 AND status = 'open' AND code_hash = ?3 AND code_expires_at > ?4 AND attempts < ?5`,
    ).bind(requestId, userId, hash, now, MAX_ATTEMPTS),
    // oxlint-disable-next-line no-restricted-properties -- guards: counts a wrong attempt only when the flip before it changed nothing (changes() = 0), same batch
    env.DB.prepare(
      "UPDATE directdebit_requests SET attempts = attempts + 1 WHERE id = ?1 AND user_id = ?2 AND status = 'open' AND changes() = 0",
    ).bind(requestId, userId),
    // oxlint-disable-next-line no-restricted-properties -- reads the state after the guarded flip and attempt count in the same batch
    env.DB.prepare(
      "SELECT status, attempts, code_expires_at FROM directdebit_requests WHERE id = ?1 AND user_id = ?2",
    ).bind(requestId, userId),
  ]);
  if (flip!.meta.changes === 1) return "ok";
  const row = (state!.results as { status: string; attempts: number; code_expires_at: number }[])[0];
  if (!row || row.status === "canceled") return "notFound";
  if (row.status !== "open") return "used";
  if (row.attempts >= MAX_ATTEMPTS) return "tooMany";
  return row.code_expires_at <= now ? "expired" : "invalid";
}

/**
 * Direct debit details that never became a mandate (abandoned, cancelled, refused) are not kept: the
 * daily cron deletes them a day on. Handed-over requests stay, their IBAN masked, as the mandate's record.
 */
export function staleRequestsStatement(db: D1Database, now = nowS()) {
  const T = schema.directdebitRequests;
  return getDb(db)
    .delete(T)
    .where(and(ne(T.status, "done"), lt(T.createdAt, now - 86_400)));
}

export async function cancelRequest(db: D1Database, userId: string, requestId: string) {
  await getDb(db)
    .update(R)
    .set({ status: "canceled" })
    .where(and(eq(R.id, requestId), eq(R.userId, userId), inArray(R.status, ["open", "verified"])));
}

export type CompleteResult =
  | { ok: true; paymentId: string; redirectTo: string }
  | { ok: false; reason: "notFound" | "blocked" | "limit" | "provider" | "discount" | "notOffered" };

/** A SEPA mandate reference: at most 35 characters of the SEPA set; ours is unique per request. */
const mandateReference = (requestId: string) =>
  `DD${requestId.replace(/[^A-Za-z0-9]/g, "").toUpperCase()}`.slice(0, 35);

/**
 * After the right code: the provider makes a customer (once per member) and a directdebit mandate
 * from the holder and IBAN, then a recurring payment of the package on that mandate (i8's
 * chargeMandate), which stays pending until the bank has collected it; the webhook credits it once.
 *
 * Once only: the mandate's idempotency key is the request id, and the request is claimed
 * (verified → done) in one guarded statement that also re-checks the blocked flag and the monthly
 * limit, so a double click, a replay or two requests confirmed at once charge at most once and never
 * over the limit. If the provider refuses the mandate the request stays verified: "Continue" retries.
 */
export async function payByMandate(
  context: AppLoadContext,
  o: {
    brand: BrandWithCompany;
    member: DiscountMember & { name: string; email: string };
    requestId: string;
    origin: string;
    now?: number;
  },
): Promise<CompleteResult> {
  // A request started while the form was approved is not made into a mandate once the approval is gone.
  if (!o.brand.sepaIbanForm) return { ok: false, reason: "notOffered" };
  const db = context.env.DB;
  const now = o.now ?? nowS();
  const { id, packageId, amountCents, holder, iban, country, status, paymentId, createdAt } = R;
  const row = await getDb(db)
    .select({ id, packageId, amountCents, holder, iban, country, status, paymentId, createdAt })
    .from(R)
    .where(and(eq(R.id, o.requestId), eq(R.userId, o.member.id)))
    .get();
  const pkg = row
    ? await packageRow(context, row.packageId, { id: o.brand.id, currency: DIRECT_DEBIT_CURRENCY })
    : null;
  if (!row || !pkg || (row.status !== "verified" && !(row.status === "done" && row.paymentId)))
    return { ok: false, reason: "notFound" };
  const pendingScreen = (paymentId: string) => `/credits/${pkg.id}/${DIRECT_DEBIT_METHOD}?payment=${paymentId}`;
  // Already handed over (a second tab, a retried post): show the payment it became.
  if (row.status === "done") return { ok: true, paymentId: row.paymentId!, redirectTo: pendingScreen(row.paymentId!) };

  // The amount was fixed when the form was sent: with the discount the member had then, if it is still theirs
  // to use (not redeemed, not held by another payment), else the request no longer holds and they start again.
  let discount: AppliedCode | null = null;
  if (row.amountCents !== pkg.price_cents) {
    discount = await activeDiscountFor(db, {
      brand: o.brand,
      member: o.member,
      pkg,
      country: row.country,
      at: row.createdAt,
    });
    if (discount?.finalCents !== row.amountCents) {
      await cancelRequest(db, o.member.id, row.id);
      return { ok: false, reason: "discount" };
    }
  }

  let customerId: string;
  let mandateId: string;
  try {
    // The customer and its mandate live in the brand's company's account (decision 206).
    const target = paymentTarget(o.brand);
    customerId = await ensureCustomer(context, target, o.member);
    const mandate = await paymentProvider(context, target).createMandate({
      customerId,
      method: "directdebit",
      consumerName: row.holder,
      consumerAccount: row.iban,
      signatureDate: new Date(now * 1000).toISOString().slice(0, 10),
      mandateReference: mandateReference(row.id),
      idempotencyKey: `mandate-${row.id}`,
    });
    // Mollie may answer a mandate it will not collect on (an IBAN it refused): nothing is charged on it.
    if (mandate.status === "invalid") {
      logError("directdebit.mandate_invalid", undefined, { mandateId: mandate.id });
      await cancelRequest(db, o.member.id, row.id);
      return { ok: false, reason: "provider" };
    }
    mandateId = mandate.id;
  } catch (e) {
    if (!(e instanceof PaymentProviderError)) throw e;
    logError("directdebit.mandate_refused", e, { status: e.status, title: e.title, field: e.field });
    return { ok: false, reason: "provider" };
  }

  const claim = await db
    // oxlint-disable-next-line no-restricted-properties -- guards: verified → done only while unblocked, within the monthly limit and with the discount code unclaimed
    .prepare(
      `UPDATE directdebit_requests SET status = 'done', iban = ?4
        WHERE id = ?5 AND user_id = ?1 AND status = 'verified'
          AND (SELECT directdebit_blocked FROM users WHERE id = ?1) = 0 AND ${noHoldSql("?1")}
          AND ${USED_SQL} + ?6 <= ?7 AND ${claimGuardSql("?8", "?1")}`,
    )
    .bind(
      o.member.id,
      monthStart(now),
      DIRECT_DEBIT_METHOD,
      maskIban(row.iban),
      row.id,
      row.amountCents,
      o.brand.directdebitMonthlyLimitCents,
      discount?.id ?? null,
    )
    .run();
  if (claim.meta.changes !== 1) {
    const check = await eligibility(db, o.brand, o.member.id, row.amountCents, row.country, now);
    return {
      ok: false,
      reason: !check.ok && check.reason !== "country" ? check.reason : discount ? "discount" : "notFound",
    };
  }

  const charged = await chargeMandate(context, {
    brand: o.brand,
    userId: o.member.id,
    pkg,
    method: DIRECT_DEBIT_METHOD,
    customerId,
    mandateId,
    origin: o.origin,
    country: row.country,
    returnPath: pendingScreen,
    discount: discount ? { codeId: discount.id, amountCents: discount.finalCents } : undefined,
    // The request is the click: one payment per request, whatever else the claim above lets through.
    intentKey: `dd-${row.id}`,
  });
  if (!charged.ok && charged.error === "discount") {
    // Another checkout took the code between the claim and the payment: nothing was charged; the request goes back.
    // Guarded: only a request handed over without a payment goes back (status and payment_id as read before).
    await getDb(db)
      .update(R)
      .set({ status: "canceled" })
      .where(and(eq(R.id, row.id), eq(R.status, "done"), isNull(R.paymentId)));
    return { ok: false, reason: "discount" };
  }
  if (!charged.ok) return { ok: false, reason: "provider" };
  await getDb(db).update(R).set({ paymentId: charged.payment.id }).where(eq(R.id, row.id));
  return { ok: true, paymentId: charged.payment.id, redirectTo: pendingScreen(charged.payment.id) };
}

export type FirstPaymentResult = CheckoutResult | { ok: false; error: "blocked" | "limit" | "country" };

/**
 * SEPA direct debit set up by the member's own bank (decision 208): the package is paid once with the
 * country's bank method (iDEAL, Bancontact, EPS) as a first payment; Mollie then makes a verified
 * directdebit mandate from the account that paid, which later orders are collected on (repeat orders
 * check that it is still valid). The same checks as the form: not blocked, no chargeback hold, within the
 * monthly limit, the member's active discount as at the form.
 */
export async function startFirstPayment(
  context: AppLoadContext,
  o: {
    brand: BrandWithCompany;
    member: DiscountMember & CheckoutMember;
    pkg: PackageRow;
    paymentCountry: string;
    origin: string;
    intentKey: string;
    now?: number;
  },
): Promise<FirstPaymentResult> {
  const now = o.now ?? nowS();
  const db = context.env.DB;
  const discount = await activeDiscountFor(db, {
    brand: o.brand,
    member: o.member,
    pkg: o.pkg,
    country: o.paymentCountry,
    at: now,
  });
  const amountCents = discount ? discount.finalCents : o.pkg.price_cents;
  const check = await eligibility(db, o.brand, o.member.id, amountCents, o.paymentCountry, now);
  if (!check.ok) return { ok: false, error: check.reason };
  const bank = await directDebitFirstMethod(context, paymentTarget(o.brand), o.paymentCountry, {
    cents: amountCents,
    currency: o.pkg.currency,
  });
  if (!bank) return { ok: false, error: "country" };
  return startCheckout(context, {
    brand: o.brand,
    member: o.member,
    pkg: o.pkg,
    method: bank.method,
    country: o.paymentCountry,
    origin: o.origin,
    discount: discount ? { codeId: discount.id, amountCents: discount.finalCents } : undefined,
    intentKey: o.intentKey,
    directDebitFirst: true,
  });
}

/**
 * Finance blocks direct debit for a member (decision 228): guarded on it not being blocked, so a
 * repeated post changes nothing and its audit row (changes() > 0) is written once.
 */
export function blockStatement(d1: D1Database, userId: string) {
  const { users } = schema;
  return getDb(d1)
    .update(users)
    .set({ directdebitBlocked: true })
    .where(and(eq(users.id, userId), eq(users.directdebitBlocked, false)));
}

/**
 * Support lifts a member's direct debit block (decision 177): guarded on the block being there, so a
 * repeated post changes nothing and the audit row that follows in the batch (changes() > 0) is not
 * written twice.
 */
export function unblockStatement(d1: D1Database, userId: string) {
  const { users } = schema;
  return getDb(d1)
    .update(users)
    .set({ directdebitBlocked: false })
    .where(and(eq(users.id, userId), eq(users.directdebitBlocked, true)));
}
