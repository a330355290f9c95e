/**
 * Discount codes (docs/product.md §3, §4, §5 and §9): the member's active discount (time bonus, else the
 * welcome code), checking a code a member typed, and the statements that make a once-per-member code
 * usable once. The pure rules (who gets which bonus, the price arithmetic) live in app/lib/offers.ts.
 *
 * Once per member is enforced in D1 statements, so racing requests cannot slip through:
 * - a payment may carry a once-per-member code only if the member has no redemption of it and no other
 *   open or pending payment carrying it (`claimGuardSql`, a condition of the payment's INSERT);
 * - the completed payment's batch writes the redemption (`redemptionStatement`); the primary key
 *   (code_id, user_id) keeps one row however many completions race.
 */
import { TIME_BONUS_CODE } from "~/lib/constants";
import { nowS } from "~/lib/dates";
import {
  activeDiscount,
  discountedPrice,
  percentageBasisPoints,
  timeBonus,
  WELCOME_CODE,
  welcomeDiscount,
  type ActiveDiscount,
  type OfferMember,
} from "~/lib/offers";
import type { Language } from "~/lib/constants";
import { and, eq, notExists, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { toPackage, type PackageRow } from "./shop.server";

type CodeRow = typeof schema.discountCodes.$inferSelect;

export type DiscountMember = OfferMember & { id: string };
export type DiscountBrand = { welcomeDiscountS: number };

/** The spec's discount code fields (docs/product.md §3), as /api/discountcode.php answers them. */
export function discountCodeFields(
  member: DiscountMember,
  brand: DiscountBrand,
  o: { welcome?: boolean; now?: number } = {},
) {
  const now = o.now ?? nowS();
  const d: ActiveDiscount | null = o.welcome
    ? welcomeDiscount(member, brand.welcomeDiscountS, now)
    : activeDiscount(member, brand.welcomeDiscountS, now);
  if (!d) return null;
  return {
    code: d.code,
    value_percentage: String(d.percentage),
    minimum_order_value: null,
    country: null,
    user_id: member.id,
    expires: new Date(d.expires * 1000).toISOString(),
    currency: "EUR",
    status: "active" as const,
    validity: "once_per_user" as const,
    expired: false,
    paymentmethods: null,
  };
}

/** Why a typed code does not apply; each has a translated message (offers.json codeErrors.*). */
export type CodeError = "not_found" | "used" | "expired" | "minimum" | "country" | "method";

export type AppliedCode = {
  id: number;
  code: string;
  percentage: string;
  originalCents: number;
  discountCents: number;
  finalCents: number;
};

/** A code's minimum order, in the code's own currency (minor units). */
export type CodeMinimum = { cents: number; currency: string };
export type CodeCheck = { ok: true; code: AppliedCode } | { ok: false; error: CodeError; minimum?: CodeMinimum };

/** Codes are typed by people: case and surrounding space do not matter; anything else odd is simply not found. */
export function normalizeCode(input: string): string | null {
  const code = input.normalize("NFKC").trim().toUpperCase();
  return /^[A-Z0-9][A-Z0-9-]{1,39}$/.test(code) ? code : null;
}

type CodeLookup = Pick<
  CodeRow,
  | "id"
  | "code"
  | "valuePercentage"
  | "minimumOrderValue"
  | "currency"
  | "country"
  | "userId"
  | "expires"
  | "status"
  | "oncePerUser"
  | "paymentmethods"
> & {
  redeemed: number;
  claimed: number;
  /** JSON { package id: price } of the packages in the code's currency (package_prices): a minimum is judged in that currency. */
  codePrices: string | null;
};

/**
 * The welcome discount and the time bonus are one built-in discount per member (both are 25% off the
 * first purchase): using or holding either counts as using or holding both. Other codes stand alone.
 */
export const BUILT_IN_CODES = [TIME_BONUS_CODE, WELCOME_CODE] as const;
const BUILT_IN_SQL = `(${BUILT_IN_CODES.map((c) => `'${c}'`).join(", ")})`;

/** The ids of the codes that count as the code `idExpr` (named `codeExpr`) for once per member: itself, or both built-in codes. */
const sameOfferSql = (idExpr: string, codeExpr: string) =>
  `SELECT g.id FROM discount_codes g WHERE g.id = ${idExpr} OR (${codeExpr} IN ${BUILT_IN_SQL} AND g.code IN ${BUILT_IN_SQL})`;

// Raw SQL: one round trip for the code and whether this member already used or holds it (or, for a built-in code, the other one).
const LOOKUP_SQL = `
SELECT c.id, c.code, c.value_percentage AS valuePercentage, c.minimum_order_value AS minimumOrderValue, c.country,
       c.user_id AS userId, c.expires, c.status, c.once_per_user AS oncePerUser, c.paymentmethods, c.currency,
       CASE WHEN c.minimum_order_value IS NULL THEN NULL
         ELSE (SELECT json_group_object(pp.package_id, pp.price_cents) FROM package_prices pp WHERE pp.currency = c.currency) END AS codePrices,
       EXISTS (SELECT 1 FROM discount_redemptions r WHERE r.code_id IN (${sameOfferSql("c.id", "c.code")}) AND r.user_id = ?2) AS redeemed,
       EXISTS (SELECT 1 FROM payments p WHERE p.discount_code_id IN (${sameOfferSql("c.id", "c.code")}) AND p.user_id = ?2 AND p.status IN ('open', 'pending')) AS claimed
FROM discount_codes c WHERE c.code = ?1`;

/** The statement that reads a code and whether this member used or holds it; null for a malformed code. */
export function codeLookupStatement(d1: D1Database, input: string, userId: string): D1PreparedStatement | null {
  const code = normalizeCode(input);
  // oxlint-disable-next-line no-restricted-properties -- goes into payments' shopData and directdebit's raw batches
  return code ? d1.prepare(LOOKUP_SQL).bind(code, userId) : null;
}

/** One order: the package (its id, its price in `currency`, the brand's), the payment country and method. */
export type CodeOrder = {
  member: DiscountMember;
  brand: DiscountBrand;
  packageId: string;
  priceCents: number;
  currency: string;
  country: string;
  method?: string | null;
  now?: number;
};

/**
 * The order's price in the code's currency: the package price itself when they agree, else the same
 * package's price in the code's currency from the brand price table (package_prices), never minor
 * units of one currency against another. Null when the package has no price in that currency.
 */
function priceInCodeCurrency(row: CodeLookup, o: CodeOrder): number | null {
  if (row.currency === o.currency) return o.priceCents;
  try {
    const prices = JSON.parse(row.codePrices ?? "{}") as Record<string, unknown>;
    const cents = prices[o.packageId];
    return typeof cents === "number" && Number.isInteger(cents) ? cents : null;
  } catch {
    return null;
  }
}

/**
 * Whether a looked-up code applies to one order: the member, the package price, the payment country
 * and (once chosen) the payment method. Checks in the order a member can act on: exists, used,
 * expired, country, minimum order value, payment method.
 */
export function evaluateCode(row: CodeLookup | null, o: CodeOrder): CodeCheck {
  const now = o.now ?? nowS();
  if (!row || row.status !== "active" || (row.userId !== null && row.userId !== o.member.id))
    return { ok: false, error: "not_found" };
  if (percentageBasisPoints(row.valuePercentage) === null) return { ok: false, error: "not_found" };
  if (row.oncePerUser && (row.redeemed || row.claimed)) return { ok: false, error: "used" };
  const builtInOver =
    (row.code === TIME_BONUS_CODE && !timeBonus(o.member, now)) ||
    (row.code === WELCOME_CODE && !welcomeDiscount(o.member, o.brand.welcomeDiscountS, now));
  if (builtInOver || (row.expires !== null && row.expires <= now)) return { ok: false, error: "expired" };
  if (row.country && row.country.toUpperCase() !== o.country.toUpperCase()) return { ok: false, error: "country" };
  if (row.minimumOrderValue !== null) {
    // A minimum applies in the code's currency; a package with no price there cannot be shown to reach it.
    const price = priceInCodeCurrency(row, o);
    if (price === null || price < row.minimumOrderValue)
      return { ok: false, error: "minimum", minimum: { cents: row.minimumOrderValue, currency: row.currency } };
  }
  const methods = parseMethods(row.paymentmethods);
  if (o.method && methods && !methods.includes(o.method)) return { ok: false, error: "method" };
  return {
    ok: true,
    code: {
      id: row.id,
      code: row.code,
      percentage: row.valuePercentage,
      ...discountedPrice(o.priceCents, row.valuePercentage),
    },
  };
}

/** Checks a typed code for one order (one round trip); see evaluateCode. */
export async function checkCode(d1: D1Database, o: CodeOrder & { code: string }): Promise<CodeCheck> {
  const lookup = codeLookupStatement(d1, o.code, o.member.id);
  if (!lookup) return { ok: false, error: "not_found" };
  return evaluateCode(await lookup.first<CodeLookup>(), o);
}

/** The code the member's prices use: the one they typed, else their active discount (time bonus or welcome). */
export function codeForPrices(
  member: DiscountMember,
  brand: DiscountBrand,
  typed?: string | null,
  now = nowS(),
): { code: string; typed: boolean } | null {
  if (typed && typed.trim()) return { code: typed, typed: true };
  const active = activeDiscount(member, brand.welcomeDiscountS, now);
  return active ? { code: active.code, typed: false } : null;
}

export type { CodeLookup };

// The raw query returns the JSON column as text.
function parseMethods(v: unknown): string[] | null {
  if (Array.isArray(v)) return v.length ? v.map(String) : null;
  if (typeof v !== "string" || !v) return null;
  try {
    const list = JSON.parse(v) as unknown;
    return Array.isArray(list) && list.length ? list.map(String) : null;
  } catch {
    return null;
  }
}

/**
 * The condition a payment INSERT … SELECT … WHERE adds when it carries a code: the code is not
 * once-per-member, or this member has neither redeemed it nor another open/pending payment carrying it
 * (for a built-in code: either built-in code). `codeParam` and `userParam` are the statement's own
 * parameter placeholders (e.g. "?7", "?2").
 */
export function claimGuardSql(codeParam: string, userParam: string): string {
  const same = sameOfferSql(codeParam, `(SELECT code FROM discount_codes WHERE id = ${codeParam})`);
  return `(${codeParam} IS NULL
    OR (SELECT once_per_user FROM discount_codes WHERE id = ${codeParam}) = 0
    OR (NOT EXISTS (SELECT 1 FROM discount_redemptions WHERE code_id IN (${same}) AND user_id = ${userParam})
        AND NOT EXISTS (SELECT 1 FROM payments WHERE discount_code_id IN (${same}) AND user_id = ${userParam} AND status IN ('open', 'pending'))))`;
}

/**
 * For a completed payment's batch, after its guarded status change: records the redemption of the
 * payment's once-per-member code. It reads the payment itself (status paid, its code), so it writes
 * nothing for a payment without a code or not paid; the primary key keeps a single row per member and
 * code, and a built-in code is not redeemed when the member already redeemed the other one (the rule
 * holds here too, not only when the checkout opened). Such a payment is still credited in full (the
 * member paid); `refusedDiscountOf` finds it for the log.
 */
export function redemptionStatement(d1: D1Database, paymentId: string, now = nowS()) {
  return (
    d1
      // oxlint-disable-next-line no-restricted-properties -- guards: inserts only for a paid payment with an unredeemed once-per-member code; runs in payments' completion chain after the guarded status flip
      .prepare(
        `INSERT INTO discount_redemptions (code_id, user_id, payment_id, created_at)
       SELECT p.discount_code_id, p.user_id, p.id, ?2 FROM payments p JOIN discount_codes c ON c.id = p.discount_code_id
       WHERE p.id = ?1 AND p.status = 'paid' AND c.once_per_user = 1
         AND NOT EXISTS (SELECT 1 FROM discount_redemptions r WHERE r.user_id = p.user_id AND r.code_id IN (${sameOfferSql("c.id", "c.code")}) AND r.code_id <> c.id)
       ON CONFLICT (code_id, user_id) DO NOTHING`,
      )
      .bind(paymentId, now)
  );
}

/**
 * After a payment completed: its once-per-member code if it was not redeemed by that payment (the
 * member had already used it or, for a built-in code, the other one), else null.
 */
export async function refusedDiscountOf(d1: D1Database, paymentId: string): Promise<string | null> {
  const { payments, discountCodes, discountRedemptions } = schema;
  const db = getDb(d1);
  const row = await db
    .select({ code: discountCodes.code })
    .from(payments)
    .innerJoin(discountCodes, eq(discountCodes.id, payments.discountCodeId))
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.status, "paid"),
        eq(discountCodes.oncePerUser, true),
        notExists(
          db
            .select({ one: sql`1` })
            .from(discountRedemptions)
            .where(eq(discountRedemptions.paymentId, payments.id)),
        ),
      ),
    )
    .get();
  return row?.code ?? null;
}

/**
 * A package as the shop shows it with a code applied: `price` the discounted price, `was` the original
 * (struck through on the page); without a code that applies, the package as it is.
 */
export function discountedPackage(
  lng: Language,
  row: PackageRow,
  lookup: CodeLookup | null,
  order: Omit<CodeOrder, "packageId" | "priceCents" | "currency">,
) {
  const plain = toPackage(lng, row);
  const check = lookup
    ? evaluateCode(lookup, { ...order, packageId: row.id, priceCents: row.price_cents, currency: row.currency })
    : null;
  if (!check?.ok) return { ...plain, was: null as string | null };
  const c = check.code;
  return {
    ...toPackage(lng, { ...row, price_cents: c.finalCents }),
    was: plain.price,
  };
}
