/**
 * The pure rules of payments (no D1, no provider): which status change is allowed, which methods
 * make a mandate, how many credits of a purchase are still unused and what their refund is worth.
 * Unit-tested in tests/unit/payment-rules.test.ts; app/models/payments.server.ts applies them.
 */
import type { ProviderPaymentStatus, SequenceType } from "~/lib/payments/provider";

export type PaymentStatus = "open" | "pending" | "paid" | "failed" | "canceled" | "expired" | "refunded";

/** Our status for the provider's ("authorized" only occurs for pay-later methods: still waiting). */
export function statusFromProvider(s: ProviderPaymentStatus): PaymentStatus {
  return s === "authorized" ? "pending" : s;
}

const NEXT: Record<PaymentStatus, PaymentStatus[]> = {
  open: ["pending", "paid", "failed", "canceled", "expired"],
  pending: ["paid", "failed", "canceled", "expired"],
  paid: [],
  failed: [],
  canceled: [],
  expired: [],
  refunded: [],
};

/** A final status never changes again; the same status twice is no change. */
export function canMove(from: PaymentStatus, to: PaymentStatus): boolean {
  return NEXT[from].includes(to);
}

/** What the member sees for a payment: waiting (open/pending), completed, or it did not go through. */
export function paymentState(status: PaymentStatus): "pending" | "completed" | "failed" {
  if (status === "paid" || status === "refunded") return "completed";
  if (status === "open" || status === "pending") return "pending";
  return "failed";
}

/** Provider methods whose first payment also creates a mandate for repeat orders. */
const MANDATE_METHODS = new Set(["creditcard", "paypal"]);
export function sequenceTypeFor(providerMethod: string): SequenceType {
  return MANDATE_METHODS.has(providerMethod) ? "first" : "oneoff";
}

/** A method row accepts a currency when it lists none or lists this one. */
export function acceptsCurrency(currencies: string | null, currency: string): boolean {
  return currencies === null || currencies.split(",").includes(currency);
}

/**
 * Unused credits of one purchase, with credits spent oldest first. Spending always takes from the
 * oldest credits, so whatever is left of the balance sits in the newest grants: a purchase keeps
 * what the balance has beyond the grants made after it, at most what it added (less refunds).
 *
 * @param balance    the member's balance now
 * @param own        the credits this purchase added, less credits already refunded from it
 * @param newerNet   the credits of every grant after it (purchases, bonuses), each less its refunds
 */
export function unusedCredits(balance: number, own: number, newerNet: number): number {
  return Math.max(0, Math.min(own, balance - newerNet));
}

/** The refund for `credits` of a purchase of `purchased` credits for `amountCents`: pro rata, rounded down. */
export function refundCents(amountCents: number, purchased: number, credits: number): number {
  if (purchased <= 0 || credits <= 0) return 0;
  return Math.floor((amountCents * Math.min(credits, purchased)) / purchased);
}

/** Whether a payment paid at `paidAt` (seconds) may still be refunded at `now` with `refundDays`. */
export function withinRefundDays(paidAt: number | null, refundDays: number, now: number): boolean {
  return paidAt !== null && refundDays > 0 && now <= paidAt + refundDays * 86_400;
}

/** A payment as the screens show it (amount already formatted in the page language). */
export type PaymentView = {
  id: string;
  status: PaymentStatus;
  state: "pending" | "completed" | "failed";
  credits: number;
  amount: string;
  method: string;
  packageId: string;
  sequenceType: SequenceType;
};

/**
 * Standard VAT rates in basis points of the countries we sell in: digital services to consumers are
 * taxed in the buyer's country (EU OSS); Norway and Switzerland tax foreign sellers the same way.
 * A country not listed uses the seller's own rate.
 */
export const VAT_RATES_BP: Record<string, number> = {
  AT: 2000, BE: 2100, CH: 810, DE: 1900, DK: 2500, ES: 2100, FI: 2550, FR: 2000, IE: 2300, IT: 2200, LU: 1700, NL: 2100,
  NO: 2500, PL: 2300, PT: 2300, SE: 2500,
};

/** The VAT inside a gross amount (prices include VAT): rounded to the cent, the rest is the net. */
export function vatOf(grossCents: number, rateBp: number): { vatCents: number; netCents: number } {
  const vatCents = Math.round((grossCents * rateBp) / (10_000 + rateBp));
  return { vatCents, netCents: grossCents - vatCents };
}

/** The seller's VAT number for a buyer country: the one registered there, else the home one (OSS). */
export function vatNumberFor(vatNumbers: string[], country: string, homeCountry: string): string | null {
  return vatNumbers.find((n) => n.toUpperCase().startsWith(country)) ?? vatNumbers.find((n) => n.toUpperCase().startsWith(homeCountry)) ?? vatNumbers[0] ?? null;
}
