/**
 * The local sandbox provider: behaves like Mollie as far as we rely on it, with no internet.
 * Its state lives in D1 (`sandbox_objects`, JSON per object, as a provider keeps it on its side),
 * its hosted checkout is /sandbox/{id} (app/routes/payments/sandbox.$id.tsx) where the tester picks the
 * outcome, and status changes call the webhook as Mollie does: a POST with only `id=<payment id>`.
 * The webhook is delivered through the Worker itself (`deliver`), so it also works in tests.
 * Never used in production (app/lib/payments/index.server.ts refuses it there).
 */
import type {
  CreateCustomerInput,
  CreateMandateInput,
  CreatePaymentInput,
  CreateRefundInput,
  ListMethodsInput,
  PaymentProvider,
  ProviderChargeback,
  ProviderCustomer,
  ProviderMandate,
  ProviderMethod,
  ProviderPayment,
  ProviderPaymentStatus,
  ProviderRefund,
  ProviderSettlement,
  ProviderSettlementItem,
  SettlementSource,
} from "./provider";
import { PaymentProviderError } from "./provider";
import { and, desc, eq, sql } from "drizzle-orm";
import { getDb, schema } from "../../../db/client";

const { sandboxObjects } = schema;

/**
 * What the sandbox keeps besides the public payment: where to return and whom to call. Its refunds
 * are objects of their own (kind "refund", parent = the payment), embedded when the payment is read.
 */
type SandboxPayment = Omit<ProviderPayment, "refunds" | "amountChargedBack" | "chargebacks" | "bankReason"> & {
  redirectUrl: string;
  webhookUrl: string;
  amountChargedBack?: ProviderPayment["amountChargedBack"];
  chargebacks?: ProviderChargeback[];
  bankReason?: string | null;
  /** The tester asked that the next refund request be made and then time out (the answer is lost). */
  timeoutNextRefund?: boolean;
  /**
   * The tester asked that the next refund be made and answered as the real Mollie can: 409 (the same
   * request twice in short succession) or 429 on a retry. Both are unknown outcomes, never a refusal.
   */
  nextRefundAnswer?: 409 | 429;
};
/**
 * A mandate the tester marked at checkout so that repeat orders on it fail (an expired card); one
 * signed on the direct debit form collects like a bank does: pending until the tester settles it.
 */
type SandboxMandate = ProviderMandate & {
  failRecurring?: boolean;
  collectLater?: boolean;
  timeoutRecurring?: boolean;
  /** Repeat orders are charged, then answered 409 (as Mollie answers a duplicate in short succession). */
  conflictRecurring?: boolean;
};
type Kind = "payment" | "customer" | "mandate" | "refund";

/** The outcomes a tester can pick on the sandbox checkout. */
export const SANDBOX_OUTCOMES = [
  "paid",
  "paid_fail_recurring",
  "paid_timeout_recurring",
  "paid_conflict_recurring",
  "failed",
  "canceled",
  "expired",
  "pending",
] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];
/** What a tester can make happen to a refund afterwards (Mollie: processing, then refunded or failed). */
export const SANDBOX_REFUND_OUTCOMES = ["refunded", "failed"] as const;
export type SandboxRefundOutcome = (typeof SANDBOX_REFUND_OUTCOMES)[number];

/**
 * What a SEPA bank answers when it refuses a direct debit (Mollie: details.bankReasonCode and
 * bankReason); the tester picks one on the pending payment's page.
 */
export const SANDBOX_BANK_REASONS: Record<string, string> = {
  AM04: "Insufficient funds",
  AC04: "Account closed",
  MD01: "No mandate",
  MS02: "Refusal by the debtor",
};

/**
 * Methods the sandbox "has activated", with Mollie's currency limits for them. `recurring`: it can be
 * a first payment that leaves a mandate (listed with sequenceType=first). PayPal cannot, like a Mollie
 * merchant whose PayPal account has no recurring payments enabled. `wallet`: listed only when the
 * checkout asks for it with includeWallets, as Mollie does.
 */
/** `badge`: the short name the sandbox's neutral logo shows (sandboxBadge). */
const METHODS: Record<
  string,
  { description: string; badge: string; currencies?: string[]; recurring?: boolean; wallet?: boolean }
> = {
  ideal: { description: "iDEAL", badge: "iDEAL", currencies: ["EUR"], recurring: true },
  bancontact: { description: "Bancontact", badge: "BC", currencies: ["EUR"], recurring: true },
  creditcard: { description: "Card", badge: "CARD", recurring: true },
  paypal: { description: "PayPal", badge: "PP" },
  applepay: { description: "Apple Pay", badge: "PAY", wallet: true },
  banktransfer: { description: "Bank transfer", badge: "BANK", currencies: ["EUR"] },
  directdebit: { description: "SEPA Direct Debit", badge: "SEPA", currencies: ["EUR"], recurring: true },
  przelewy24: { description: "Przelewy24", badge: "P24", currencies: ["PLN", "EUR"] },
  blik: { description: "BLIK", badge: "BLIK", currencies: ["PLN"] },
  eps: { description: "eps", badge: "eps", currencies: ["EUR"], recurring: true },
  paysafecard: { description: "paysafecard", badge: "PSC", currencies: ["EUR"] },
  satispay: { description: "Satispay", badge: "SP", currencies: ["EUR"] },
  twint: { description: "TWINT", badge: "TWINT", currencies: ["CHF"] },
  swish: { description: "Swish", badge: "SW", currencies: ["SEK"] },
  vipps: { description: "Vipps", badge: "VIPPS", currencies: ["NOK"] },
  mobilepay: { description: "MobilePay", badge: "MP", currencies: ["DKK", "EUR", "NOK", "SEK"] },
};

/**
 * The sandbox's logo of a method, as Mollie's list gives one per method (32 × 24, its size1x): a neutral grey badge
 * with the method's short name, drawn here as a data: SVG, so nothing is fetched and the CSP's img-src (data:) holds.
 * Not the brands' marks: the sandbox imitates the shape of the answer, not the artwork (decision 215).
 */
export function sandboxBadge(label: string): string {
  const size = Math.min(9, Math.floor(46 / Math.max(label.length, 1)));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="24" viewBox="0 0 32 24"><rect x=".5" y=".5" width="31" height="23" rx="3" fill="#fff" stroke="#c9c1c5"/><text x="16" y="12" dy=".35em" text-anchor="middle" font-family="Arial,Helvetica,sans-serif" font-weight="700" font-size="${size}" fill="#4d4549">${label}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

export type SandboxDeps = {
  db: D1Database;
  /** Hands a request to this Worker (the webhook POST). */
  deliver: (request: Request) => Promise<Response>;
  /**
   * The account (as a Mollie API key) the calls come with: its objects only are found, and what it
   * makes is its own, so one company's payments, customers and mandates are unknown to another's key.
   * Absent: the sandbox's own hosted pages, which find a payment by id in any account.
   */
  account?: string;
};

const iso = () => new Date().toISOString();
/** Ids shaped like Mollie's: a prefix and letters and digits only. */
const newId = (prefix: string) =>
  `${prefix}_${[...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(36).padStart(2, "0")).join("")}`;

/** Mollie's 409: the same request twice in short succession (the first may still be executed). */
const conflict = (what: "payment" | "refund") =>
  new PaymentProviderError(409, "Conflict", `A duplicate ${what} has been detected`);

/** The sandbox's fee per paid payment in its settlements (a round figure of its own, not Mollie's prices). */
export const SANDBOX_FEE_CENTS = 29;
/** The sandbox's VAT on its fees (21 %, as a Dutch provider invoices). */
const SANDBOX_FEE_VAT_BP = 2100;

export class SandboxProvider implements PaymentProvider, SettlementSource {
  readonly name = "sandbox" as const;
  constructor(private readonly deps: SandboxDeps) {}

  /** The stored objects' JSON, to be narrowed by a where. */
  private objects() {
    return getDb(this.deps.db)
      .select({ data: sandboxObjects.data, account: sandboxObjects.account })
      .from(sandboxObjects);
  }

  /** Only the caller's account, like a Mollie key (the hosted pages, with none, see every account). */
  private mine() {
    return this.deps.account === undefined ? undefined : eq(sandboxObjects.account, this.deps.account);
  }

  private async loadRow<T>(kind: Kind, id: string): Promise<{ obj: T; account: string } | null> {
    const row = await this.objects()
      .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.kind, kind), this.mine()))
      .get();
    return row ? { obj: JSON.parse(row.data) as T, account: row.account } : null;
  }

  private async load<T>(kind: Kind, id: string): Promise<T | null> {
    return (await this.loadRow<T>(kind, id))?.obj ?? null;
  }

  /**
   * Stores a new object unless the account already made one with this idempotency key; returns the
   * stored one. `account`: where an object the sandbox makes itself belongs (a paid first payment's mandate).
   */
  private async insert<T extends { id: string }>(
    kind: Kind,
    obj: T,
    parentId: string | null,
    key: string | null,
    account = this.deps.account ?? "",
  ): Promise<T> {
    await getDb(this.deps.db)
      .insert(sandboxObjects)
      .values({ id: obj.id, kind, account, parentId, idempotencyKey: key, data: JSON.stringify(obj) })
      .onConflictDoNothing();
    if (!key) return obj;
    const row = await this.objects()
      .where(
        and(eq(sandboxObjects.account, account), eq(sandboxObjects.kind, kind), eq(sandboxObjects.idempotencyKey, key)),
      )
      .get();
    return JSON.parse(row!.data) as T;
  }

  private async save(kind: Kind, obj: { id: string }) {
    await getDb(this.deps.db)
      .update(sandboxObjects)
      .set({ data: JSON.stringify(obj) })
      .where(and(eq(sandboxObjects.id, obj.id), eq(sandboxObjects.kind, kind)));
  }

  async createPayment(input: CreatePaymentInput): Promise<ProviderPayment> {
    if (!Number.isInteger(input.amount.cents) || input.amount.cents < 1) {
      throw new PaymentProviderError(422, "Unprocessable Entity", "The amount is lower than the minimum", "amount");
    }
    if (input.sequenceType !== "oneoff" && !input.customerId) {
      throw new PaymentProviderError(
        422,
        "Unprocessable Entity",
        "A customer is required for this sequence type",
        "customerId",
      );
    }
    // Like Mollie, a customer of another account (another company's key) does not exist here.
    if (input.customerId && !(await this.load("customer", input.customerId)))
      throw new PaymentProviderError(422, "Unprocessable Entity", "The customer id is invalid", "customerId");
    const method = input.method ?? null;
    if (method && !METHODS[method])
      throw new PaymentProviderError(422, "Unprocessable Entity", "The payment method is invalid", "method");
    if (method && input.sequenceType === "first" && !METHODS[method]!.recurring) {
      throw new PaymentProviderError(
        422,
        "Unprocessable Entity",
        "The payment method does not support recurring payments",
        "method",
      );
    }
    const id = newId("tr");
    const recurring = input.sequenceType === "recurring";
    let mandate: SandboxMandate | null = null;
    if (recurring) {
      mandate = input.mandateId ? await this.load<SandboxMandate>("mandate", input.mandateId) : null;
      if (!mandate || mandate.customerId !== input.customerId || mandate.status !== "valid") {
        throw new PaymentProviderError(422, "Unprocessable Entity", "The customer has no valid mandate", "mandateId");
      }
    }
    const origin = new URL(input.redirectUrl).origin;
    const payment: SandboxPayment = {
      id,
      status: "open",
      amount: input.amount,
      method: recurring ? mandate!.method : method,
      description: input.description,
      sequenceType: input.sequenceType,
      metadata: input.metadata,
      checkoutUrl: recurring ? null : `${origin}/sandbox/${id}`,
      customerId: input.customerId ?? null,
      mandateId: recurring ? mandate!.id : null,
      amountRefunded: null,
      failureReason: null,
      bankReason: null,
      createdAt: iso(),
      paidAt: null,
      redirectUrl: input.redirectUrl,
      webhookUrl: input.webhookUrl,
    };
    const stored = await this.insert("payment", payment, input.customerId ?? null, input.idempotencyKey);
    if (recurring && stored.id === id) {
      // A recurring payment needs no checkout: the provider charges the mandate and calls the webhook.
      await this.settle(id, mandate!.failRecurring ? "failed" : mandate!.collectLater ? "pending" : "paid");
      // Like a request whose answer is lost on the way back: the charge was made, the caller cannot know.
      if (mandate!.timeoutRecurring) throw new PaymentProviderError(0, "Network Error", "The operation timed out");
      if (mandate!.conflictRecurring) throw conflict("payment");
      return (await this.getPayment(id))!;
    }
    return publicPayment(stored, []);
  }

  async getPayment(id: string): Promise<ProviderPayment | null> {
    const p = await this.load<SandboxPayment>("payment", id);
    return p ? publicPayment(p, await this.refundsOf(id)) : null;
  }

  /**
   * The sandbox settles like Mollie (decision 209): one settlement per month and currency, carrying the
   * payments paid in it, the refunds made in it that were not given up (failed or canceled) and the
   * chargebacks received in it, less its fee per payment; paid out ("paidout") once the month is over.
   */
  /** The account in a settlement's id, so two companies' settlements of one month never share one. */
  private get accountTag() {
    return (this.deps.account ?? "").toLowerCase().replace(/[^a-z0-9]/g, "");
  }

  private async settlementsOf(year: number, month: number) {
    const start = Date.UTC(year, month - 1, 1);
    const end = Date.UTC(year, month, 1);
    const within = (at: string | null | undefined) => !!at && Date.parse(at) >= start && Date.parse(at) < end;
    // Like Mollie's, a settlement belongs to one organisation: this account's payments and refunds only.
    const rows = await this.objects().where(and(eq(sandboxObjects.kind, "payment"), this.mine()));
    const refunds = await this.objects().where(and(eq(sandboxObjects.kind, "refund"), this.mine()));
    const byCurrency = new Map<string, ProviderSettlementItem[]>();
    const add = (currency: string, item: ProviderSettlementItem) =>
      byCurrency.set(currency, [...(byCurrency.get(currency) ?? []), item]);
    for (const row of rows) {
      const p = JSON.parse(row.data) as SandboxPayment;
      if (p.paidAt && within(p.paidAt))
        add(p.amount.currency, { kind: "payment", id: p.id, paymentId: p.id, settled: p.amount });
      for (const c of p.chargebacks ?? [])
        if (within(c.createdAt))
          add(c.amount.currency, {
            kind: "chargeback",
            id: c.id,
            paymentId: p.id,
            settled: { cents: -c.amount.cents, currency: c.amount.currency },
          });
    }
    for (const row of refunds) {
      const r = JSON.parse(row.data) as ProviderRefund;
      if (within(r.createdAt) && r.status !== "failed" && r.status !== "canceled")
        add(r.amount.currency, {
          kind: "refund",
          id: r.id,
          paymentId: r.paymentId,
          settled: { cents: -r.amount.cents, currency: r.amount.currency },
        });
    }
    const over = Date.now() >= end;
    return [...byCurrency].map(([currency, items]) => {
      const paid = items.filter((i) => i.kind === "payment").length;
      const fees = paid * SANDBOX_FEE_CENTS;
      const settlement: ProviderSettlement = {
        id: `stl_sbx${year}${String(month).padStart(2, "0")}${currency.toLowerCase()}${this.accountTag}`,
        reference: `SANDBOX.${year}${String(month).padStart(2, "0")}.${currency}`,
        status: over ? "paidout" : "open",
        amount: { cents: items.reduce((sum, i) => sum + i.settled!.cents, 0) - fees, currency },
        fees: { cents: fees, currency },
        feesVat: { cents: Math.round((fees * SANDBOX_FEE_VAT_BP) / (10_000 + SANDBOX_FEE_VAT_BP)), currency },
        createdAt: new Date(Math.min(end, Date.now())).toISOString(),
        settledAt: over ? new Date(end).toISOString() : null,
      };
      return { settlement, items };
    });
  }

  async listSettlements(year: number, month: number): Promise<ProviderSettlement[]> {
    return (await this.settlementsOf(year, month)).map((s) => s.settlement);
  }

  async settlementItems(settlementId: string): Promise<ProviderSettlementItem[]> {
    const m = /^stl_sbx(\d{4})(\d{2})[a-z]{3}[a-z0-9]*$/.exec(settlementId);
    if (!m) return [];
    const found = (await this.settlementsOf(Number(m[1]), Number(m[2]))).find((s) => s.settlement.id === settlementId);
    return found?.items ?? [];
  }

  /** A payment's refunds, oldest first (a payment has a handful at most). */
  async refundsOf(paymentId: string): Promise<ProviderRefund[]> {
    const results = await this.objects()
      .where(and(eq(sandboxObjects.kind, "refund"), eq(sandboxObjects.parentId, paymentId), this.mine()))
      .orderBy(sandboxObjects.createdAt, sql`rowid`);
    return results.map((r) => JSON.parse(r.data) as ProviderRefund);
  }

  /**
   * The tester settles a refund afterwards, as the bank would: refunded, or failed (the money comes
   * back to the merchant, so the payment's amountRefunded drops again). Then the payment's webhook
   * is called, as Mollie does. A refund that is already final stays as it is.
   */
  async settleRefund(refundId: string, outcome: SandboxRefundOutcome): Promise<string | null> {
    const r = await this.load<ProviderRefund>("refund", refundId);
    if (!r) return null;
    const p = (await this.load<SandboxPayment>("payment", r.paymentId))!;
    if (!["queued", "pending", "processing"].includes(r.status)) return p.redirectUrl;
    r.status = outcome;
    await this.save("refund", r);
    if (outcome === "failed" && p.amountRefunded) {
      p.amountRefunded = { cents: Math.max(0, p.amountRefunded.cents - r.amount.cents), currency: p.amount.currency };
      await this.save("payment", p);
    }
    await this.callWebhook(p);
    return p.redirectUrl;
  }

  /** The tester's chargeback of a paid payment: the bank takes the whole amount back; then the webhook. */
  async chargeback(paymentId: string): Promise<string | null> {
    const p = await this.load<SandboxPayment>("payment", paymentId);
    if (!p) return null;
    if (p.status !== "paid" || (p.chargebacks ?? []).some((c) => !c.reversedAt)) return p.redirectUrl;
    p.chargebacks = [
      ...(p.chargebacks ?? []),
      { id: newId("chb"), amount: { ...p.amount }, createdAt: iso(), reversedAt: null },
    ];
    p.amountChargedBack = { cents: (p.amountChargedBack?.cents ?? 0) + p.amount.cents, currency: p.amount.currency };
    await this.save("payment", p);
    await this.callWebhook(p);
    return p.redirectUrl;
  }

  /**
   * The bank reverses the open chargeback (the merchant won the dispute): Mollie sets its reversedAt.
   * amountChargedBack is left as it was: what a reversal restores is read from the chargebacks.
   */
  async reverseChargeback(paymentId: string): Promise<string | null> {
    const p = await this.load<SandboxPayment>("payment", paymentId);
    if (!p) return null;
    const open = (p.chargebacks ?? []).filter((c) => !c.reversedAt);
    if (open.length === 0) return p.redirectUrl;
    for (const c of open) c.reversedAt = iso();
    await this.save("payment", p);
    await this.callWebhook(p);
    return p.redirectUrl;
  }

  /** The tester's switch: the next refund of this payment is made, then its answer is lost (a timeout). */
  async timeoutNextRefund(paymentId: string): Promise<string | null> {
    const p = await this.load<SandboxPayment>("payment", paymentId);
    if (!p) return null;
    p.timeoutNextRefund = true;
    await this.save("payment", p);
    return p.redirectUrl;
  }

  /** The tester's choice: the next refund is made and answered 409, or 429 as on a retry. */
  async answerNextRefund(paymentId: string, status: 409 | 429): Promise<string | null> {
    const p = await this.load<SandboxPayment>("payment", paymentId);
    if (!p) return null;
    p.nextRefundAnswer = status;
    await this.save("payment", p);
    return p.redirectUrl;
  }

  /** The checkout page's view: the payment with where it returns to. */
  async getCheckout(id: string): Promise<SandboxPayment | null> {
    return this.load<SandboxPayment>("payment", id);
  }

  /**
   * The tester's choice on the checkout (or the later settlement of a pending payment): changes the
   * status as the provider would, creates the mandate of a paid first payment, then calls the webhook.
   * Returns where the member's browser goes next. A payment that is already final stays as it is.
   */
  async settle(
    id: string,
    outcome: SandboxOutcome | "paid_later" | { bankReasonCode: string },
  ): Promise<string | null> {
    const found = await this.loadRow<SandboxPayment>("payment", id);
    if (!found) return null;
    const p = found.obj;
    const from: ProviderPaymentStatus[] =
      outcome === "paid_later" || typeof outcome === "object" ? ["pending"] : ["open", "pending"];
    if (!from.includes(p.status)) return p.redirectUrl;
    const status: ProviderPaymentStatus =
      typeof outcome === "object"
        ? "failed"
        : outcome === "paid_fail_recurring" ||
            outcome === "paid_timeout_recurring" ||
            outcome === "paid_conflict_recurring" ||
            outcome === "paid_later"
          ? "paid"
          : outcome === "pending"
            ? "pending"
            : outcome;
    p.status = status;
    p.checkoutUrl = null;
    if (p.method === null) p.method = "creditcard";
    if (status === "paid") {
      p.paidAt = iso();
      // As Mollie: what it settles (no currency conversion here) and, for a bank's payment, the IBAN's country.
      p.settlement ??= p.amount;
      if (p.method !== "creditcard" && p.method !== "paypal" && p.method !== "applepay") p.countryCode ??= "NL";
      if (p.sequenceType === "first" && p.customerId) {
        // A bank's first payment (iDEAL, Bancontact, EPS) leaves a valid SEPA direct debit mandate on the account that paid.
        const mandate: SandboxMandate = {
          id: newId("mdt"),
          customerId: p.customerId,
          status: "valid",
          method: p.method === "paypal" ? "paypal" : p.method === "creditcard" ? "creditcard" : "directdebit",
          consumerName: "Sandbox Tester",
          consumerAccount: p.method === "creditcard" ? "************1234" : "NL55INGB0000000000",
          mandateReference: null,
          signatureDate: p.paidAt.slice(0, 10),
          createdAt: p.paidAt,
          failRecurring: outcome === "paid_fail_recurring",
          timeoutRecurring: outcome === "paid_timeout_recurring",
          conflictRecurring: outcome === "paid_conflict_recurring",
        };
        // A direct debit is pending until the bank has collected it, as on a mandate from the form.
        if (mandate.method === "directdebit") mandate.collectLater = true;
        await this.insert("mandate", mandate, p.customerId, null, found.account);
        p.mandateId = mandate.id;
      }
    }
    if (typeof outcome === "object") {
      // A SEPA bank's refusal: Mollie fills bankReasonCode and bankReason, not failureReason.
      p.failureReason = outcome.bankReasonCode;
      p.bankReason = SANDBOX_BANK_REASONS[outcome.bankReasonCode] ?? null;
    } else if (status === "failed")
      p.failureReason = p.sequenceType === "recurring" ? "card_expired" : "authentication_failed";
    await this.save("payment", p);
    await this.callWebhook(p);
    return p.redirectUrl;
  }

  private async callWebhook(p: SandboxPayment) {
    const request = new Request(p.webhookUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "User-Agent": "Mollie/sandbox" },
      body: new URLSearchParams({ id: p.id }),
    });
    // Like Mollie, a failed delivery does not undo the status; the return page and a later call catch up.
    await this.deps.deliver(request).catch(() => undefined);
  }

  async createRefund(input: CreateRefundInput): Promise<ProviderRefund> {
    const p = await this.load<SandboxPayment>("payment", input.paymentId);
    if (!p) throw new PaymentProviderError(404, "Not Found", "No payment exists with this id", null);
    if (p.status !== "paid")
      throw new PaymentProviderError(422, "Unprocessable Entity", "The payment cannot be refunded", "amount");
    const refunded = p.amountRefunded?.cents ?? 0;
    if (
      input.amount.currency !== p.amount.currency ||
      input.amount.cents < 1 ||
      refunded + input.amount.cents > p.amount.cents
    ) {
      throw new PaymentProviderError(
        422,
        "Unprocessable Entity",
        "The refund amount is higher than the amount remaining",
        "amount",
      );
    }
    const refund: ProviderRefund = {
      id: newId("re"),
      paymentId: p.id,
      amount: input.amount,
      status: "pending",
      metadata: input.metadata,
      createdAt: iso(),
    };
    const stored = await this.insert("refund", refund, p.id, input.idempotencyKey);
    if (stored.id === refund.id) {
      p.amountRefunded = { cents: refunded + input.amount.cents, currency: p.amount.currency };
      const lost = p.timeoutNextRefund;
      const answer = p.nextRefundAnswer;
      p.timeoutNextRefund = false;
      delete p.nextRefundAnswer;
      await this.save("payment", p);
      // The refund is made, but its answer is lost on the way back: the caller cannot tell.
      if (lost) throw new PaymentProviderError(0, "Network Error", "The operation timed out");
      if (answer === 409) throw conflict("refund");
      // A retry after a lost answer, refused for the rate: the first attempt was made.
      if (answer === 429)
        throw new PaymentProviderError(429, "Too Many Requests", "You have exceeded the rate limit", null, true);
    }
    return stored;
  }

  async listMethods(input: ListMethodsInput): Promise<ProviderMethod[]> {
    return Object.entries(METHODS)
      .filter(([, m]) => !m.currencies || m.currencies.includes(input.amount.currency))
      .filter(([, m]) => input.sequenceType !== "first" || m.recurring)
      .filter(([id, m]) => !m.wallet || (input.includeWallets ?? []).includes(id as "applepay"))
      .map(([id, m]) => ({
        id,
        description: m.description,
        minimumAmount: { cents: 1, currency: input.amount.currency },
        maximumAmount: null,
        image: sandboxBadge(m.badge),
      }));
  }

  async createCustomer(input: CreateCustomerInput): Promise<ProviderCustomer> {
    const customer = { id: newId("cst"), name: input.name, email: input.email };
    return this.insert("customer", customer, null, input.idempotencyKey);
  }

  /** Mollie answers 404 for a customer its key's organisation does not have. */
  private async customerHere(customerId: string) {
    if (!(await this.load("customer", customerId)))
      throw new PaymentProviderError(404, "Not Found", "No customer exists with this id", null);
  }

  async createMandate(input: CreateMandateInput): Promise<ProviderMandate> {
    await this.customerHere(input.customerId);
    const mandate: SandboxMandate = {
      id: newId("mdt"),
      customerId: input.customerId,
      status: "valid",
      method: "directdebit",
      consumerName: input.consumerName,
      consumerAccount: input.consumerAccount,
      mandateReference: input.mandateReference,
      signatureDate: input.signatureDate,
      createdAt: iso(),
      collectLater: true,
    };
    return publicMandate(await this.insert("mandate", mandate, input.customerId, input.idempotencyKey));
  }

  async listMandates(customerId: string): Promise<ProviderMandate[]> {
    await this.customerHere(customerId);
    const results = await this.objects()
      .where(and(eq(sandboxObjects.kind, "mandate"), eq(sandboxObjects.parentId, customerId), this.mine()))
      .orderBy(desc(sandboxObjects.createdAt), sql`rowid DESC`);
    return results.map((r) => publicMandate(JSON.parse(r.data) as SandboxMandate));
  }

  async listCustomerPayments(customerId: string): Promise<ProviderPayment[]> {
    await this.customerHere(customerId);
    const results = await getDb(this.deps.db)
      .select({ id: sandboxObjects.id })
      .from(sandboxObjects)
      .where(and(eq(sandboxObjects.kind, "payment"), eq(sandboxObjects.parentId, customerId), this.mine()))
      .orderBy(desc(sandboxObjects.createdAt), sql`rowid DESC`)
      .limit(50);
    return Promise.all(results.map(async (r) => (await this.getPayment(r.id))!));
  }
}

function publicPayment(p: SandboxPayment, refunds: ProviderRefund[]): ProviderPayment {
  const { redirectUrl: _r, webhookUrl: _w, timeoutNextRefund: _t, ...rest } = p;
  return {
    ...rest,
    amountChargedBack: p.amountChargedBack ?? null,
    chargebacks: p.chargebacks ?? [],
    bankReason: p.bankReason ?? null,
    refunds,
  };
}

function publicMandate(m: SandboxMandate): ProviderMandate {
  const { failRecurring: _f, collectLater: _c, timeoutRecurring: _t, conflictRecurring: _x, ...rest } = m;
  return rest;
}
