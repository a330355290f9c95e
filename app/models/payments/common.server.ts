/**
 * Money (decision 090), what every part of app/models/payments/ shares: a payment's row, whose provider
 * account it is in (decision 206), the webhook's path and the queued re-check of an unknown outcome.
 * The provider (Mollie or the local sandbox, app/lib/payments/) is the only source of truth for a
 * payment's status. Pure rules live in ../payment-rules.ts.
 */
import { schema, getDb } from "../../../db/client";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PREMIUM_TIERS } from "~/lib/constants";
import { type PriceBrand, packagesStatement } from "../shop.server";
import { type BrandWithCompany, getBrandById } from "../brand.server";
import { type PaymentTarget, paymentProvider } from "~/lib/payments/index.server";
import { accountOf } from "~/lib/payments/account";
import type { PaymentCheck } from "../payment-rules";
import { logError } from "~/lib/log.server";

export type PaymentRow = typeof schema.payments.$inferSelect;
export type Ctx = AppLoadContext;

/**
 * Every schema column of payments under its field name, for the raw batches this model still shares with
 * statements of other models (toStatement): D1 answers raw rows keyed by the selected names.
 */
export const ROW_COLUMNS = Object.fromEntries(
  Object.entries(getTableColumns(schema.payments)).map(([k, c]) => [k, sql`${c}`.as(k)]),
);

/** One payments row with every schema column (the builder's select, so a new column is never missing), or null. */
export function paymentWhere(d1: D1Database, where: SQL | undefined): Promise<PaymentRow | null> {
  return getDb(d1)
    .select()
    .from(schema.payments)
    .where(where)
    .get()
    .then((row) => row ?? null);
}
export const P = schema.payments;

// ─── A package as sold ───

export type PackageRow = { id: string; credits: number; price_cents: number; currency: string };
export type Tier = (typeof PREMIUM_TIERS)[number];

/** A package as sold on a brand in a currency (packagesStatement's resolved price): null when it is not sold there. */
export async function packageRow(context: Ctx, id: string, brand: PriceBrand): Promise<PackageRow | null> {
  return packagesStatement(context.env.DB, brand, id).first<PackageRow>();
}

// ─── Whose account (decision 206) ───

/** The account a brand's payments are made in: its company's, with the brand's website profile there. */
export function paymentTarget(brand: Pick<BrandWithCompany, "mollieProfileId" | "company">): PaymentTarget {
  return { account: accountOf(brand.company), profileId: brand.mollieProfileId };
}

/**
 * The account of one of our payments: the one it was made in (stored on it), else (made before
 * accounts were stored) its brand's company's. Always from our row, never from a request.
 */
export async function targetOfRow(
  env: Ctx["env"],
  row: Pick<PaymentRow, "brandId" | "providerAccount">,
): Promise<PaymentTarget> {
  const brand = await getBrandById(env, row.brandId);
  if (!brand) throw new Error(`payments: the brand ${row.brandId} of a payment is gone`);
  return { account: row.providerAccount ?? accountOf(brand.company), profileId: brand.mollieProfileId };
}

/** The provider in a payment's own account. */
export async function providerOfRow(context: Ctx, row: Pick<PaymentRow, "brandId" | "providerAccount">) {
  return paymentProvider(context, await targetOfRow(context.env, row));
}

// ─── The webhook's path ───

export const WEBHOOK_PATH = "/api/payments/webhook";

// ─── Unknown outcomes: the queued re-check ───

/** Long enough for a request still on its way to have been executed or dropped at the provider. */
export const CHECK_DELAY_S = 120;

export async function enqueueCheck(context: Ctx, check: PaymentCheck) {
  try {
    await context.env.PAYMENT_CHECKS.send(check, { contentType: "json", delaySeconds: CHECK_DELAY_S });
  } catch (e) {
    // The webhook still resolves it; an operator finds the rest by status = 'checking' in the log's ids.
    logError("payments.recheck_queue_failed", e);
  }
}
/**
 * How far back the sweep looks: Mollie lets a bank transfer stay open for 12 days by default (the
 * longest of our methods; every other one expires within hours), so two weeks covers them all.
 */
export const SWEEP_WINDOW_S = 14 * 86_400;
