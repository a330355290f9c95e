/**
 * Mollie's Payments API v2 over fetch (no SDK): payments, refunds, methods, customers, mandates.
 * Amounts travel as decimal strings ("10.00"); we convert to and from integer cents here and
 * nowhere else. Every creating request carries an Idempotency-Key, so a retried request returns
 * the first result instead of charging twice. Errors come back as application/hal+json
 * `{ status, title, detail, field? }` and become a PaymentProviderError.
 */
import type {
  CreateCustomerInput, CreateMandateInput, CreatePaymentInput, CreateRefundInput, ListMethodsInput, Money, PaymentProvider,
  ProviderCustomer, ProviderMandate, ProviderMethod, ProviderPayment, ProviderPaymentStatus, ProviderRefund, SequenceType,
} from "./provider";
import { PaymentProviderError, PROVIDER_PAYMENT_STATUSES } from "./provider";

export const MOLLIE_API = "https://api.mollie.com/v2";

type MollieAmount = { value: string; currency: string };
type MollieLink = { href: string; type: string };

/** The subset of Mollie's payment object we read. */
type MolliePayment = {
  id: string;
  status: string;
  amount: MollieAmount;
  description: string;
  method: string | null;
  metadata: Record<string, unknown> | null;
  sequenceType?: SequenceType;
  customerId?: string;
  mandateId?: string;
  amountRefunded?: MollieAmount;
  details?: { failureReason?: string } | null;
  createdAt: string;
  paidAt?: string;
  _links: { checkout?: MollieLink };
};
type MollieMandate = {
  id: string;
  status: ProviderMandate["status"];
  method: ProviderMandate["method"];
  details?: { consumerName?: string | null; consumerAccount?: string | null; cardNumber?: string | null; cardHolder?: string | null } | null;
  mandateReference?: string | null;
  signatureDate?: string | null;
  createdAt: string;
  _links?: { customer?: MollieLink };
};

/** Integer cents to Mollie's "12.34" (currencies with two decimals, which are all we sell in). */
export function toMollieAmount(m: Money): MollieAmount {
  if (!Number.isInteger(m.cents) || m.cents < 0) throw new Error(`bad amount ${m.cents}`);
  const value = `${Math.floor(m.cents / 100)}.${String(m.cents % 100).padStart(2, "0")}`;
  return { value, currency: m.currency };
}

/** Mollie's "12.34" back to integer cents, without floating point. */
export function fromMollieAmount(a: MollieAmount): Money {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(a.value);
  if (!match) throw new PaymentProviderError(502, "Bad Gateway", `unexpected amount ${a.value}`);
  return { cents: Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0")), currency: a.currency };
}

function toPayment(p: MolliePayment): ProviderPayment {
  const status = (PROVIDER_PAYMENT_STATUSES as readonly string[]).includes(p.status) ? (p.status as ProviderPaymentStatus) : "open";
  const metadata: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.metadata ?? {})) if (typeof v === "string") metadata[k] = v;
  return {
    id: p.id,
    status,
    amount: fromMollieAmount(p.amount),
    method: p.method ?? null,
    description: p.description,
    sequenceType: p.sequenceType ?? "oneoff",
    metadata,
    checkoutUrl: p._links.checkout?.href ?? null,
    customerId: p.customerId ?? null,
    mandateId: p.mandateId ?? null,
    amountRefunded: p.amountRefunded ? fromMollieAmount(p.amountRefunded) : null,
    failureReason: p.details?.failureReason ?? null,
    createdAt: p.createdAt,
    paidAt: p.paidAt ?? null,
  };
}

function toMandate(m: MollieMandate, customerId: string): ProviderMandate {
  return {
    id: m.id,
    customerId,
    status: m.status,
    method: m.method,
    consumerName: m.details?.consumerName ?? m.details?.cardHolder ?? null,
    consumerAccount: m.details?.consumerAccount ?? m.details?.cardNumber ?? null,
    mandateReference: m.mandateReference ?? null,
    signatureDate: m.signatureDate ?? null,
    createdAt: m.createdAt,
  };
}

export class MollieProvider implements PaymentProvider {
  readonly name = "mollie" as const;
  constructor(
    private readonly apiKey: string,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
    private readonly base = MOLLIE_API,
  ) {}

  private async call<T>(method: "GET" | "POST", path: string, o: { body?: unknown; idempotencyKey?: string; notFound?: "null" } = {}): Promise<T | null> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.apiKey}`, Accept: "application/hal+json" };
    if (o.body !== undefined) headers["Content-Type"] = "application/json";
    if (o.idempotencyKey) headers["Idempotency-Key"] = o.idempotencyKey;
    let response: Response;
    try {
      response = await this.fetcher(`${this.base}${path}`, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body) });
    } catch (e) {
      throw new PaymentProviderError(0, "Network Error", e instanceof Error ? e.message : String(e));
    }
    if (response.status === 404 && o.notFound === "null") return null;
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      throw new PaymentProviderError(response.status || 502, "Bad Gateway", "Mollie answered with something that is not JSON");
    }
    if (!response.ok) {
      throw new PaymentProviderError(
        response.status,
        typeof json.title === "string" ? json.title : response.statusText,
        typeof json.detail === "string" ? json.detail : "Mollie refused the request",
        typeof json.field === "string" ? json.field : null,
      );
    }
    return json as T;
  }

  async createPayment(input: CreatePaymentInput): Promise<ProviderPayment> {
    const body: Record<string, unknown> = {
      amount: toMollieAmount(input.amount),
      description: input.description,
      redirectUrl: input.redirectUrl,
      cancelUrl: input.redirectUrl,
      webhookUrl: input.webhookUrl,
      metadata: input.metadata,
      sequenceType: input.sequenceType,
    };
    if (input.method) body.method = input.method;
    if (input.customerId) body.customerId = input.customerId;
    if (input.mandateId) body.mandateId = input.mandateId;
    if (input.locale) body.locale = input.locale;
    return toPayment((await this.call<MolliePayment>("POST", "/payments", { body, idempotencyKey: input.idempotencyKey }))!);
  }

  async getPayment(id: string): Promise<ProviderPayment | null> {
    // Ids come from a webhook body: only Mollie's own shape reaches the URL.
    if (!/^tr_[A-Za-z0-9]{1,64}$/.test(id)) return null;
    const p = await this.call<MolliePayment>("GET", `/payments/${id}`, { notFound: "null" });
    return p ? toPayment(p) : null;
  }

  async createRefund(input: CreateRefundInput): Promise<ProviderRefund> {
    const r = (await this.call<{ id: string; amount: MollieAmount; status: ProviderRefund["status"]; createdAt: string; paymentId: string }>(
      "POST",
      `/payments/${encodeURIComponent(input.paymentId)}/refunds`,
      { body: { amount: toMollieAmount(input.amount), description: input.description, metadata: input.metadata }, idempotencyKey: input.idempotencyKey },
    ))!;
    return { id: r.id, paymentId: r.paymentId, amount: fromMollieAmount(r.amount), status: r.status, createdAt: r.createdAt };
  }

  async listMethods(input: ListMethodsInput): Promise<ProviderMethod[]> {
    const a = toMollieAmount(input.amount);
    const q = new URLSearchParams({
      "amount[value]": a.value,
      "amount[currency]": a.currency,
      billingCountry: input.country,
      sequenceType: input.sequenceType,
      resource: "payments",
    });
    if (input.locale) q.set("locale", input.locale);
    const r = (await this.call<{ _embedded: { methods: { id: string; description: string; minimumAmount?: MollieAmount; maximumAmount?: MollieAmount | null }[] } }>(
      "GET",
      `/methods?${q}`,
    ))!;
    return r._embedded.methods.map((m) => ({
      id: m.id,
      description: m.description,
      minimumAmount: m.minimumAmount ? fromMollieAmount(m.minimumAmount) : null,
      maximumAmount: m.maximumAmount ? fromMollieAmount(m.maximumAmount) : null,
    }));
  }

  async createCustomer(input: CreateCustomerInput): Promise<ProviderCustomer> {
    const body: Record<string, unknown> = { name: input.name, email: input.email, metadata: input.metadata };
    if (input.locale) body.locale = input.locale;
    const c = (await this.call<{ id: string; name: string; email: string }>("POST", "/customers", { body, idempotencyKey: input.idempotencyKey }))!;
    return { id: c.id, name: c.name, email: c.email };
  }

  async createMandate(input: CreateMandateInput): Promise<ProviderMandate> {
    const body: Record<string, unknown> = {
      method: input.method,
      consumerName: input.consumerName,
      consumerAccount: input.consumerAccount,
      signatureDate: input.signatureDate,
      mandateReference: input.mandateReference,
    };
    if (input.consumerBic) body.consumerBic = input.consumerBic;
    const m = (await this.call<MollieMandate>("POST", `/customers/${encodeURIComponent(input.customerId)}/mandates`, {
      body,
      idempotencyKey: input.idempotencyKey,
    }))!;
    return toMandate(m, input.customerId);
  }

  async listMandates(customerId: string): Promise<ProviderMandate[]> {
    const r = (await this.call<{ _embedded: { mandates: MollieMandate[] } }>("GET", `/customers/${encodeURIComponent(customerId)}/mandates`))!;
    return r._embedded.mandates.map((m) => toMandate(m, customerId));
  }
}
