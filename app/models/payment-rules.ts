/**
 * The pure rules of payments (no D1, no provider): which status change is allowed, which methods
 * make a mandate, how many credits of a purchase are still unused and what their refund is worth.
 * Unit-tested in tests/unit/payment-rules.test.ts; app/models/payments/ applies them.
 */
import type { ProviderPaymentStatus, ProviderRefundStatus, SequenceType } from "~/lib/payments/provider";
import type { payments, refunds } from "../../db/schema";

/**
 * The column's enum is the one list (db/schema.ts says what each status means). charged_back is set only
 * by a chargeback (from paid), never by the provider's payment status.
 */
export type PaymentStatus = (typeof payments.$inferSelect)["status"];

/** Our status for the provider's ("authorized" only occurs for pay-later methods: still waiting). */
export function statusFromProvider(s: ProviderPaymentStatus): PaymentStatus {
  return s === "authorized" ? "pending" : s;
}

const NEXT: Record<PaymentStatus, PaymentStatus[]> = {
  open: ["checking", "pending", "paid", "failed", "canceled", "expired"],
  // Whatever the provider's record says; a re-check that finds nothing there marks it failed.
  checking: ["open", "pending", "paid", "failed", "canceled", "expired"],
  pending: ["paid", "failed", "canceled", "expired"],
  paid: [],
  failed: [],
  canceled: [],
  expired: [],
  refunded: [],
  charged_back: [],
};

/** A final status never changes again; the same status twice is no change. */
export function canMove(from: PaymentStatus, to: PaymentStatus): boolean {
  return NEXT[from].includes(to);
}

/** The prefix of a failure_reason we wrote ourselves (the provider never told us it failed). */
export const INFERRED_FAILURE = "provider:";

/**
 * Whether the provider's `to` overrides our final status: only "paid" over a failure we inferred (an
 * unknown outcome at checkout, a refusal after a retry, a re-check that found nothing), never over
 * the provider's own failed, canceled or expired (final at Mollie, so a later paid cannot be its word).
 */
export function providerOverrides(from: PaymentStatus, failureReason: string | null, to: PaymentStatus): boolean {
  return to === "paid" && from === "failed" && (failureReason ?? "").startsWith(INFERRED_FAILURE);
}

/**
 * What finance must be told when the provider's final word and our final record disagree (paid on
 * one side, not paid on the other), in words for the console; null when they agree or nothing is final.
 */
export function disagreement(ours: PaymentStatus, theirs: PaymentStatus): string | null {
  const notPaid = ["failed", "canceled", "expired"];
  const paid = ["paid", "refunded", "charged_back"];
  if (theirs === "paid" && notPaid.includes(ours)) return `provider says paid, we have ${ours}`;
  if (paid.includes(ours) && notPaid.includes(theirs)) return `provider says ${theirs}, we have ${ours}`;
  return null;
}

/** What the member sees for a payment: waiting (open/pending), completed, or it did not go through. */
export function paymentState(status: PaymentStatus): "pending" | "completed" | "failed" {
  if (status === "paid" || status === "refunded" || status === "charged_back") return "completed";
  if (status === "open" || status === "pending" || status === "checking") return "pending";
  return "failed";
}

/**
 * Our refund's status: the provider's, or checking while the create call's outcome is unknown (then
 * whatever the provider's record says is a step forward).
 */
export type RefundStatus = (typeof refunds.$inferSelect)["status"];

/** How far along a refund is: (checking) → queued → pending → processing → refunded, failed or canceled (final). */
const REFUND_STEP: Record<RefundStatus, number> = {
  checking: -1,
  queued: 0,
  pending: 1,
  processing: 2,
  refunded: 3,
  failed: 3,
  canceled: 3,
};

/** A refund only moves forward, and a final status never changes (a late or replayed webhook changes nothing). */
export function refundCanMove(from: RefundStatus, to: RefundStatus): boolean {
  return REFUND_STEP[from] < 3 && REFUND_STEP[to] > REFUND_STEP[from];
}

/** A refund that ended without the money going back: the member gets the credits back. */
export function refundReturnsCredits(status: ProviderRefundStatus): boolean {
  return status === "failed" || status === "canceled";
}

/** Our method id of SEPA direct debits in `payments.method` (PAYMENT_METHODS). */
export const DIRECT_DEBIT_METHOD = "sepa_directdebit";
/**
 * Bank methods whose paid first payment leaves a SEPA direct debit mandate made from the paying account
 * (Mollie: iDEAL, Bancontact, EPS): how direct debit is set up unless the brand's own form is approved.
 */
export const DIRECT_DEBIT_FIRST_METHODS = ["ideal", "bancontact", "eps"];

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

/**
 * The credits a refund of `refundCents` (part or all of a purchase of `purchased` credits for
 * `amountCents`) takes back: the share it pays for, rounded up (refundCents rounds the money down, so
 * the member's own refund of all unused credits takes exactly those), never more than `unused`.
 */
export function creditsForRefund(refund: number, amountCents: number, purchased: number, unused: number): number {
  if (amountCents <= 0 || refund <= 0) return 0;
  return Math.max(0, Math.min(unused, Math.ceil((refund * purchased) / amountCents)));
}

/**
 * What a refund of `refund` minor units takes back, in words the console's refund form and its
 * confirmation use: the refunded share of the purchase's credits (rounded up, at most the purchase),
 * of which `taken` are unused now and taken back, and `spent` are already spent and stay with the member.
 */
export function refundTakesBack(refund: number, amountCents: number, purchased: number, unused: number) {
  const share = Math.min(purchased, creditsForRefund(refund, amountCents, purchased, purchased));
  const taken = creditsForRefund(refund, amountCents, purchased, unused);
  return { share, taken, spent: share - taken };
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
  /** A refused direct debit: the SEPA bank's reason code (AM04, …) and its own words, for the member and support. */
  bankReasonCode: string | null;
  bankReason: string | null;
};

/**
 * The title of a page that shows a payment it started (decision 215): named for what happened ("Payment complete"),
 * in the tab as in the heading; null while nothing happened yet (the page keeps its own title).
 */
export function paymentTitleKey(payment: Pick<PaymentView, "state"> | null): string | null {
  if (payment?.state === "completed") return "payments:state.completedTitle";
  if (payment?.state === "pending") return "payments:state.pendingTitle";
  return null;
}

/** SEPA reason codes the pages explain in the member's language (locales payments.bankReasons); others show the bank's words. */
export const BANK_REASON_CODES = ["AC01", "AC04", "AC06", "AM04", "MD01", "MD06", "MS02", "MS03", "SL01"] as const;

/** A SEPA reason code (ISO 20022: two letters, two digits), as opposed to a card's failure reason. */
export function isBankReasonCode(reason: string | null): reason is string {
  return reason !== null && /^[A-Z]{2}\d{2}$/.test(reason);
}

/**
 * Standard VAT rates in basis points of the countries we sell in: digital services to consumers are
 * taxed in the buyer's country (EU OSS); Norway and Switzerland tax foreign sellers the same way.
 * A country not listed uses the seller's own rate.
 */
export const VAT_RATES_BP: Record<string, number> = {
  AT: 2000,
  BE: 2100,
  CH: 810,
  DE: 1900,
  DK: 2500,
  ES: 2100,
  FI: 2550,
  FR: 2000,
  IE: 2300,
  IT: 2200,
  LU: 1700,
  NL: 2100,
  NO: 2500,
  PL: 2300,
  PT: 2300,
  SE: 2500,
};

/** The VAT inside a gross amount (prices include VAT): rounded to the cent, the rest is the net. */
export function vatOf(grossCents: number, rateBp: number): { vatCents: number; netCents: number } {
  const vatCents = Math.round((grossCents * rateBp) / (10_000 + rateBp));
  return { vatCents, netCents: grossCents - vatCents };
}

/** The seller's VAT number for a buyer country: the one registered there, else the home one (OSS). */
export function vatNumberFor(vatNumbers: string[], country: string, homeCountry: string): string | null {
  return (
    vatNumbers.find((n) => n.toUpperCase().startsWith(country)) ??
    vatNumbers.find((n) => n.toUpperCase().startsWith(homeCountry)) ??
    vatNumbers[0] ??
    null
  );
}

/** Mollie's checkout locales (its published `locale` enum) for our languages. */
const PROVIDER_LOCALES = new Set([
  "da_DK",
  "de_AT",
  "de_CH",
  "de_DE",
  "de_LU",
  "en_BE",
  "en_GB",
  "en_NL",
  "en_US",
  "es_ES",
  "fi_FI",
  "fr_BE",
  "fr_FR",
  "fr_LU",
  "it_IT",
  "nb_NO",
  "nl_BE",
  "nl_NL",
  "pl_PL",
  "sv_SE",
]);
const DEFAULT_LOCALE: Record<string, string> = {
  da: "da_DK",
  de: "de_DE",
  en: "en_GB",
  es: "es_ES",
  fi: "fi_FI",
  fr: "fr_FR",
  it: "it_IT",
  nb: "nb_NO",
  nl: "nl_NL",
  pl: "pl_PL",
  sv: "sv_SE",
};

/**
 * The checkout locale of a member's language in their payment country when Mollie has it (nl_BE,
 * fr_BE, de_AT, de_CH, …), else the language's home locale. Mollie picks the bank transfer's target
 * account (and the checkout's language) by it.
 */
export function localeFor(language: string, country: string | null): string | undefined {
  const local = `${language}_${country ?? ""}`;
  return PROVIDER_LOCALES.has(local) ? local : DEFAULT_LOCALE[language];
}

/**
 * What the bank holds back now: the chargebacks not reversed. Without the chargebacks themselves
 * (a provider that does not send them), its amountChargedBack.
 */
export function chargedBackCents(p: {
  amountChargedBack: { cents: number } | null;
  chargebacks: { amount: { cents: number }; reversedAt: string | null }[];
}): number {
  if (p.chargebacks.length === 0) return p.amountChargedBack?.cents ?? 0;
  return p.chargebacks.filter((c) => !c.reversedAt).reduce((sum, c) => sum + c.amount.cents, 0);
}

/** A payment or refund whose create call's answer was lost, to be looked up at the provider (the PAYMENT_CHECKS queue). */
export type PaymentCheck =
  | { kind: "payment"; paymentId: string }
  | { kind: "refund"; refundId: string }
  /** The wallet outbox (decision 189): apply the member's rows not applied yet (all members' oldest without userId). */
  | { kind: "wallet"; userId?: string };
