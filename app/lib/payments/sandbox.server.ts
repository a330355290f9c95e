/**
 * The local sandbox provider: behaves like Mollie as far as we rely on it, with no internet.
 * Its state lives in D1 (`sandbox_objects`, JSON per object, as a provider keeps it on its side),
 * its hosted checkout is /sandbox/{id} (app/routes/sandbox.$id.tsx) where the tester picks the
 * outcome, and status changes call the webhook as Mollie does: a POST with only `id=<payment id>`.
 * The webhook is delivered through the Worker itself (`deliver`), so it also works in tests.
 * Never used in production (app/lib/payments/index.server.ts refuses it there).
 */
import type {
  CreateCustomerInput, CreateMandateInput, CreatePaymentInput, CreateRefundInput, ListMethodsInput, PaymentProvider,
  ProviderCustomer, ProviderMandate, ProviderMethod, ProviderPayment, ProviderPaymentStatus, ProviderRefund,
} from "./provider";
import { PaymentProviderError } from "./provider";

/** What the sandbox keeps besides the public payment: where to return and whom to call. */
type SandboxPayment = ProviderPayment & { redirectUrl: string; webhookUrl: string };
/**
 * A mandate the tester marked at checkout so that repeat orders on it fail (an expired card); one
 * signed on the direct debit form collects like a bank does: pending until the tester settles it.
 */
type SandboxMandate = ProviderMandate & { failRecurring?: boolean; collectLater?: boolean };
type Kind = "payment" | "customer" | "mandate" | "refund";

/** The outcomes a tester can pick on the sandbox checkout. */
export const SANDBOX_OUTCOMES = ["paid", "paid_fail_recurring", "failed", "canceled", "expired", "pending"] as const;
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

/** Methods the sandbox "has activated", with Mollie's currency limits for them. */
const METHODS: Record<string, { description: string; currencies?: string[]; recurring?: boolean }> = {
  ideal: { description: "iDEAL", currencies: ["EUR"], recurring: true },
  bancontact: { description: "Bancontact", currencies: ["EUR"], recurring: true },
  creditcard: { description: "Card", recurring: true },
  paypal: { description: "PayPal", recurring: true },
  applepay: { description: "Apple Pay" },
  banktransfer: { description: "Bank transfer", currencies: ["EUR"] },
  directdebit: { description: "SEPA Direct Debit", currencies: ["EUR"], recurring: true },
  przelewy24: { description: "Przelewy24", currencies: ["PLN", "EUR"] },
  blik: { description: "BLIK", currencies: ["PLN"] },
  eps: { description: "eps", currencies: ["EUR"], recurring: true },
  paysafecard: { description: "paysafecard" },
  satispay: { description: "Satispay", currencies: ["EUR"] },
  twint: { description: "TWINT", currencies: ["CHF"] },
  swish: { description: "Swish", currencies: ["SEK"] },
  vipps: { description: "Vipps", currencies: ["NOK"] },
  mobilepay: { description: "MobilePay", currencies: ["DKK", "EUR", "NOK", "SEK"] },
};

export type SandboxDeps = {
  db: D1Database;
  /** Hands a request to this Worker (the webhook POST). */
  deliver: (request: Request) => Promise<Response>;
};

const iso = () => new Date().toISOString();
/** Ids shaped like Mollie's: a prefix and letters and digits only. */
const newId = (prefix: string) => `${prefix}_${[...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(36).padStart(2, "0")).join("")}`;

export class SandboxProvider implements PaymentProvider {
  readonly name = "sandbox" as const;
  constructor(private readonly deps: SandboxDeps) {}

  private async load<T>(kind: Kind, id: string): Promise<T | null> {
    const row = await this.deps.db.prepare("SELECT data FROM sandbox_objects WHERE id = ?1 AND kind = ?2").bind(id, kind).first<{ data: string }>();
    return row ? (JSON.parse(row.data) as T) : null;
  }

  /** Stores a new object unless one was already made with this idempotency key; returns the stored one. */
  private async insert<T extends { id: string }>(kind: Kind, obj: T, parentId: string | null, key: string | null): Promise<T> {
    await this.deps.db
      .prepare("INSERT INTO sandbox_objects (id, kind, parent_id, idempotency_key, data) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING")
      .bind(obj.id, kind, parentId, key, JSON.stringify(obj))
      .run();
    if (!key) return obj;
    const row = await this.deps.db
      .prepare("SELECT data FROM sandbox_objects WHERE kind = ?1 AND idempotency_key = ?2")
      .bind(kind, key)
      .first<{ data: string }>();
    return JSON.parse(row!.data) as T;
  }

  private async save(kind: Kind, obj: { id: string }) {
    await this.deps.db.prepare("UPDATE sandbox_objects SET data = ?3 WHERE id = ?1 AND kind = ?2").bind(obj.id, kind, JSON.stringify(obj)).run();
  }

  async createPayment(input: CreatePaymentInput): Promise<ProviderPayment> {
    if (!Number.isInteger(input.amount.cents) || input.amount.cents < 1) {
      throw new PaymentProviderError(422, "Unprocessable Entity", "The amount is lower than the minimum", "amount");
    }
    if (input.sequenceType !== "oneoff" && !input.customerId) {
      throw new PaymentProviderError(422, "Unprocessable Entity", "A customer is required for this sequence type", "customerId");
    }
    const method = input.method ?? null;
    if (method && !METHODS[method]) throw new PaymentProviderError(422, "Unprocessable Entity", "The payment method is invalid", "method");
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
      createdAt: iso(),
      paidAt: null,
      redirectUrl: input.redirectUrl,
      webhookUrl: input.webhookUrl,
    };
    const stored = await this.insert("payment", payment, input.customerId ?? null, input.idempotencyKey);
    if (recurring && stored.id === id) {
      // A recurring payment needs no checkout: the provider charges the mandate and calls the webhook.
      await this.settle(id, mandate!.failRecurring ? "failed" : mandate!.collectLater ? "pending" : "paid");
      return publicPayment((await this.load<SandboxPayment>("payment", id))!);
    }
    return publicPayment(stored);
  }

  async getPayment(id: string): Promise<ProviderPayment | null> {
    const p = await this.load<SandboxPayment>("payment", id);
    return p ? publicPayment(p) : null;
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
  async settle(id: string, outcome: SandboxOutcome | "paid_later"): Promise<string | null> {
    const p = await this.load<SandboxPayment>("payment", id);
    if (!p) return null;
    const from: ProviderPaymentStatus[] = outcome === "paid_later" ? ["pending"] : ["open", "pending"];
    if (!from.includes(p.status)) return p.redirectUrl;
    const status: ProviderPaymentStatus =
      outcome === "paid_fail_recurring" || outcome === "paid_later" ? "paid" : outcome === "pending" ? "pending" : outcome;
    p.status = status;
    p.checkoutUrl = null;
    if (p.method === null) p.method = "creditcard";
    if (status === "paid") {
      p.paidAt = iso();
      if (p.sequenceType === "first" && p.customerId) {
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
        };
        await this.insert("mandate", mandate, p.customerId, null);
        p.mandateId = mandate.id;
      }
    }
    if (status === "failed") p.failureReason = p.sequenceType === "recurring" ? "card_expired" : "authentication_failed";
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
    if (p.status !== "paid") throw new PaymentProviderError(422, "Unprocessable Entity", "The payment cannot be refunded", "amount");
    const refunded = p.amountRefunded?.cents ?? 0;
    if (input.amount.currency !== p.amount.currency || input.amount.cents < 1 || refunded + input.amount.cents > p.amount.cents) {
      throw new PaymentProviderError(422, "Unprocessable Entity", "The refund amount is higher than the amount remaining", "amount");
    }
    const refund: ProviderRefund = { id: newId("re"), paymentId: p.id, amount: input.amount, status: "pending", createdAt: iso() };
    const stored = await this.insert("refund", refund, p.id, input.idempotencyKey);
    if (stored.id === refund.id) {
      p.amountRefunded = { cents: refunded + input.amount.cents, currency: p.amount.currency };
      await this.save("payment", p);
    }
    return stored;
  }

  async listMethods(input: ListMethodsInput): Promise<ProviderMethod[]> {
    return Object.entries(METHODS)
      .filter(([, m]) => !m.currencies || m.currencies.includes(input.amount.currency))
      .filter(([, m]) => input.sequenceType !== "first" || m.recurring)
      .map(([id, m]) => ({ id, description: m.description, minimumAmount: { cents: 1, currency: input.amount.currency }, maximumAmount: null }));
  }

  async createCustomer(input: CreateCustomerInput): Promise<ProviderCustomer> {
    const customer = { id: newId("cst"), name: input.name, email: input.email };
    return this.insert("customer", customer, null, input.idempotencyKey);
  }

  async createMandate(input: CreateMandateInput): Promise<ProviderMandate> {
    if (!(await this.load("customer", input.customerId))) throw new PaymentProviderError(404, "Not Found", "No customer exists with this id", null);
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
    const { results } = await this.deps.db
      .prepare("SELECT data FROM sandbox_objects WHERE kind = 'mandate' AND parent_id = ?1 ORDER BY created_at DESC, rowid DESC")
      .bind(customerId)
      .all<{ data: string }>();
    return results.map((r) => publicMandate(JSON.parse(r.data) as SandboxMandate));
  }
}

function publicPayment(p: SandboxPayment): ProviderPayment {
  const { redirectUrl: _r, webhookUrl: _w, ...rest } = p;
  return rest;
}

function publicMandate(m: SandboxMandate): ProviderMandate {
  const { failRecurring: _f, collectLater: _c, ...rest } = m;
  return rest;
}
