/**
 * The one interface to a payment service provider (docs/architecture/stack.md §1). Two adapters implement it:
 * Mollie (Payments API v2 over fetch, app/lib/payments/mollie.server.ts) and the local sandbox
 * (app/lib/payments/sandbox.server.ts, the default outside production, refused in production).
 *
 * The shapes follow Mollie's Payments API v2, translated to our conventions: money is integer cents
 * with an ISO 4217 currency (Mollie sends "10.00" strings), ids are the provider's own (tr_…, re_…,
 * cst_…, mdt_…). Nothing here touches D1 rows of ours: app/models/payments/ does that.
 */

export type Money = { cents: number; currency: string };

/** Mollie's payment statuses. "authorized" only occurs for pay-later methods, which we do not offer. */
export const PROVIDER_PAYMENT_STATUSES = [
  "open",
  "pending",
  "authorized",
  "paid",
  "failed",
  "canceled",
  "expired",
] as const;
export type ProviderPaymentStatus = (typeof PROVIDER_PAYMENT_STATUSES)[number];

/** oneoff: a single payment; first: a payment that also creates a mandate; recurring: charged on a mandate, no redirect. */
export type SequenceType = "oneoff" | "first" | "recurring";

export type CreatePaymentInput = {
  amount: Money;
  description: string;
  /** The provider's method id (ideal, creditcard, paypal, banktransfer, directdebit, …); omitted for recurring. */
  method?: string;
  /** Where the member's browser returns after the hosted checkout. */
  redirectUrl: string;
  /** Called (POST, form body `id=<payment id>`) on every status change. */
  webhookUrl: string;
  /** Echoed back on the payment; values are strings (we keep our own payment id here). */
  metadata: Record<string, string>;
  /** A retried create with the same key returns the first payment instead of creating a second. */
  idempotencyKey: string;
  sequenceType: SequenceType;
  /** Required for first and recurring payments. */
  customerId?: string;
  /** Required for recurring payments (the mandate a first payment or a direct debit form created). */
  mandateId?: string;
  /** The checkout's language, e.g. "nl_NL". */
  locale?: string;
  /** PayPal: what is sold is digital (credits), which decides PayPal's seller protection. */
  digitalGoods?: boolean;
  /** paysafecard: who pays, across payments (a hash of the member, never anything that identifies them). */
  customerReference?: string;
};

export type ProviderPayment = {
  id: string;
  status: ProviderPaymentStatus;
  amount: Money;
  /** The method actually used; null while the member has not chosen yet. */
  method: string | null;
  description: string;
  sequenceType: SequenceType;
  metadata: Record<string, string>;
  /** The hosted checkout to send the member to; null once paid/failed or for recurring payments. */
  checkoutUrl: string | null;
  customerId: string | null;
  /** Set on a paid first payment (the mandate it created) and on recurring payments. */
  mandateId: string | null;
  amountRefunded: Money | null;
  /** What the payer's bank reversed (chargebacks); null or 0 when none. */
  amountChargedBack: Money | null;
  /** The payment's refunds as the provider knows them now (Mollie: `embed=refunds` on the payment). */
  refunds: ProviderRefund[];
  /**
   * The provider's reason for a failed payment, if any: a card's details.failureReason, or the SEPA
   * bank's reason code (details.bankReasonCode, e.g. AM04) for a direct debit the bank refused.
   */
  failureReason: string | null;
  /** The bank's own words for a refused direct debit (Mollie: details.bankReason); null otherwise. */
  bankReason: string | null;
  /**
   * The payment's chargebacks (Mollie: `embed=chargebacks`), each with when the bank reversed it;
   * empty when the provider did not send them (then amountChargedBack alone tells).
   */
  chargebacks: ProviderChargeback[];
  createdAt: string;
  paidAt: string | null;
  /**
   * The country of the payer's card or bank account (Mollie: details.cardCountryCode, else the IBAN's
   * country of details.consumerAccount, else the countryCode Mollie detected at checkout); null when unknown.
   */
  countryCode?: string | null;
  /** What the provider settles to the merchant for it (Mollie's settlementAmount); null until known. */
  settlement?: Money | null;
};

export type ProviderChargeback = {
  id: string;
  amount: Money;
  createdAt: string;
  /** Set when the bank reversed the chargeback (the money came back to the merchant). */
  reversedAt: string | null;
};

export type CreateRefundInput = {
  paymentId: string;
  amount: Money;
  description: string;
  metadata: Record<string, string>;
  idempotencyKey: string;
};

export type ProviderRefundStatus = "queued" | "pending" | "processing" | "refunded" | "failed" | "canceled";
export type ProviderRefund = {
  id: string;
  paymentId: string;
  amount: Money;
  status: ProviderRefundStatus;
  /** Echoed back (we keep our refund id here). */
  metadata: Record<string, string>;
  createdAt: string;
};

export type ListMethodsInput = {
  /** ISO 3166-1 alpha-2 country of the payer (Mollie: billingCountry). */
  country: string;
  amount: Money;
  sequenceType: SequenceType;
  locale?: string;
  /**
   * Wallets the checkout can offer (Mollie lists Apple Pay only when asked with includeWallets=applepay,
   * because the browser must be checked first).
   */
  includeWallets?: "applepay"[];
};

export type ProviderMethod = {
  id: string;
  description: string;
  minimumAmount: Money | null;
  maximumAmount: Money | null;
  /** The method's logo where the provider's list gives one: Mollie's https SVG, the sandbox's data: badge (sandboxBadge). */
  image?: string | null;
};

export type CreateCustomerInput = {
  name: string;
  email: string;
  locale?: string;
  metadata: Record<string, string>;
  idempotencyKey: string;
};
export type ProviderCustomer = { id: string; name: string; email: string };

export type CreateMandateInput = {
  customerId: string;
  method: "directdebit";
  /** The account holder. */
  consumerName: string;
  /** The IBAN, without spaces. */
  consumerAccount: string;
  consumerBic?: string;
  /** YYYY-MM-DD, the day the member signed (submitted the form and confirmed the SMS code). */
  signatureDate: string;
  /** Our own reference of the mandate, shown on the member's bank statement. */
  mandateReference: string;
  idempotencyKey: string;
};

export type ProviderMandateStatus = "valid" | "pending" | "invalid";
export type ProviderMandate = {
  id: string;
  customerId: string;
  status: ProviderMandateStatus;
  method: "directdebit" | "creditcard" | "paypal";
  consumerName: string | null;
  consumerAccount: string | null;
  mandateReference: string | null;
  signatureDate: string | null;
  createdAt: string;
};

/**
 * A provider refused a request or could not be reached. `status` is the HTTP status (0 when the
 * network failed), `field` the input Mollie blamed (e.g. "amount"). Callers map it to a translated
 * message; its text is for logs only. `afterDoubt`: an earlier attempt of the same request ended
 * with an unknown outcome, so even a refusal now may be about a request Mollie already executed.
 */
export class PaymentProviderError extends Error {
  /** A 429's Retry-After, in milliseconds, when the provider gave one. */
  retryAfterMs: number | null = null;
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    readonly field: string | null = null,
    readonly afterDoubt = false,
  ) {
    super(message);
    this.name = "PaymentProviderError";
  }

  /**
   * Whether the provider may have done the work anyway: the network failed or timed out (status 0),
   * it answered 5xx, or 409 (Mollie: two identical requests in short succession, the first possibly
   * still being executed), or any refusal that follows an attempt whose outcome was unknown (a 429 on
   * a retry). Mollie's idempotency guide: a timed-out request may still be executed. Such an outcome
   * is unknown, never a "no": nothing is given back or charged again until the provider's own record
   * says what happened.
   */
  get unknownOutcome(): boolean {
    return this.afterDoubt || this.status === 0 || this.status >= 500 || this.status === 409;
  }
}

export interface PaymentProvider {
  readonly name: "sandbox" | "mollie";
  createPayment(input: CreatePaymentInput): Promise<ProviderPayment>;
  /**
   * The payment as the provider knows it now, with its refunds and what was charged back: the only
   * source of truth for a webhook (Mollie calls the payment's webhook for refund and chargeback
   * changes too). Null if unknown.
   */
  getPayment(id: string): Promise<ProviderPayment | null>;
  createRefund(input: CreateRefundInput): Promise<ProviderRefund>;
  /** Methods enabled for this payer, amount and sequence type, in the provider's order. */
  listMethods(input: ListMethodsInput): Promise<ProviderMethod[]>;
  createCustomer(input: CreateCustomerInput): Promise<ProviderCustomer>;
  createMandate(input: CreateMandateInput): Promise<ProviderMandate>;
  listMandates(customerId: string): Promise<ProviderMandate[]>;
  /** A customer's payments, newest first (the recent ones): how an unknown create outcome is checked. */
  listCustomerPayments(customerId: string): Promise<ProviderPayment[]>;
}

/** A signed amount in minor units (a settlement's refunds and chargebacks are negative). */
export type SignedMoney = { cents: number; currency: string };

/** A payout of the provider to the merchant's bank account (Mollie's settlement). */
export type ProviderSettlement = {
  id: string;
  reference: string | null;
  /** open, pending, processing-at-bank, paidout, failed (Mollie's words, kept as they come). */
  status: string;
  /** What is paid out: revenue less refunds, chargebacks and the provider's fees. */
  amount: SignedMoney;
  /** The provider's fees in it (Mollie: its periods' costs), gross, and the VAT in them. */
  fees: SignedMoney;
  feesVat: SignedMoney;
  createdAt: string;
  settledAt: string | null;
};

/** One payment, refund or chargeback a settlement carries, with what it settled (negative for money going back). */
export type ProviderSettlementItem = {
  kind: "payment" | "refund" | "chargeback";
  /** The item's own id (tr_, re_, chb_). */
  id: string;
  /** The payment it belongs to (tr_; the payment's own id for a payment). */
  paymentId: string;
  /** Null when the provider gives none (PayPal's refunds are not Mollie's to pay out: settled at zero). */
  settled: SignedMoney | null;
};

/**
 * Where settlements are read (decision 209): Mollie's Settlements API (an organization access token,
 * not a payments key; settlements exist in live mode only), or the sandbox's own.
 */
export interface SettlementSource {
  /** The settlements Mollie made in the month (UTC), newest first. */
  listSettlements(year: number, month: number): Promise<ProviderSettlement[]>;
  /** Everything one settlement carries: its payments, refunds and chargebacks. */
  settlementItems(settlementId: string): Promise<ProviderSettlementItem[]>;
}
