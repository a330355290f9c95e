/**
 * Mollie's Payments API v2 over fetch (no SDK): payments, refunds, methods, customers, mandates.
 * Amounts travel as decimal strings ("10.00"); we convert to and from integer cents here and
 * nowhere else. Every creating request carries an Idempotency-Key, so a retried request returns
 * the first result instead of charging twice. Errors come back as application/hal+json
 * `{ status, title, detail, field? }` and become a PaymentProviderError.
 *
 * Retries are our own choice, not a copy of Mollie's clients (its Node client retries only a 5xx, 2 s
 * apart, three attempts; its PHP client only network errors): a creating POST whose outcome is unknown
 * (network error, timeout, 5xx) is retried with the same Idempotency-Key at least 2 s later, each
 * attempt allowed 15 s; a 429 is waited out once (its Retry-After). If it still fails, or a retry is
 * refused (409, 429, or any 4xx after an attempt that may have been executed), the error says
 * `unknownOutcome` and the caller must not treat it as a refusal (Mollie may have done it).
 * A GET is never retried (the callers have a cache, a fallback or a later look): 2.5 s, one try, and a
 * 429 waited out once when its Retry-After is short.
 */
import type {
  CreateCustomerInput,
  CreateMandateInput,
  CreatePaymentInput,
  CreateRefundInput,
  ListMethodsInput,
  Money,
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
  SequenceType,
  SettlementSource,
  SignedMoney,
} from "./provider";
import { PaymentProviderError, PROVIDER_PAYMENT_STATUSES } from "./provider";

export const MOLLIE_API = "https://api.mollie.com/v2";
/** Where Mollie's hosted checkout lives (`_links.checkout.href`): the pay form's redirect goes there. */
export const MOLLIE_CHECKOUT_ORIGIN = "https://www.mollie.com";
/** Where Mollie's method list points its logos (image.svg). */
export const MOLLIE_IMAGES = `${MOLLIE_CHECKOUT_ORIGIN}/external/icons/`;

/** Attempts of a creating POST whose outcome is unknown (the first and two retries) and the pauses between them. */
export const MOLLIE_ATTEMPTS = 3;
export const RETRY_PAUSES_MS = [2000, 4000];
/** One attempt longer than this is a timeout (Workers' fetch has no deadline of its own). */
export const POST_TIMEOUT_MS = 15_000;
/** A GET is a read the page can live without (the methods list falls back to its table): short, no retry. */
export const GET_TIMEOUT_MS = 2500;
/** The longest Retry-After a GET waits out (a page is rendering); a POST waits up to the longer one. */
const GET_RETRY_AFTER_MAX_MS = 3000;
const POST_RETRY_AFTER_MAX_MS = 10_000;

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
  amountChargedBack?: MollieAmount;
  /** Cards: failureReason; SEPA direct debit: bankReasonCode and bankReason (the bank's words). */
  details?: {
    failureReason?: string | null;
    bankReasonCode?: string | null;
    bankReason?: string | null;
    /** Cards: the issuing country. */
    cardCountryCode?: string | null;
    /** Bank methods (iDEAL, Bancontact, EPS, direct debit, bank transfer): the payer's IBAN. */
    consumerAccount?: string | null;
  } | null;
  createdAt: string;
  paidAt?: string;
  countryCode?: string | null;
  settlementAmount?: MollieAmount | null;
  _links: { checkout?: MollieLink };
  /** Present when asked for with `embed=refunds` (and chargebacks, which we read as amountChargedBack). */
  _embedded?: { refunds?: MollieRefund[]; chargebacks?: MollieChargeback[] };
};
type MollieChargeback = { id: string; amount: MollieAmount; createdAt: string; reversedAt?: string | null };
type MollieRefund = {
  id: string;
  amount: MollieAmount;
  status: ProviderRefund["status"];
  metadata?: Record<string, unknown> | null;
  createdAt: string;
  paymentId: string;
};
type MollieMandate = {
  id: string;
  status: ProviderMandate["status"];
  method: ProviderMandate["method"];
  details?: {
    consumerName?: string | null;
    consumerAccount?: string | null;
    cardNumber?: string | null;
    cardHolder?: string | null;
  } | null;
  mandateReference?: string | null;
  signatureDate?: string | null;
  createdAt: string;
  _links?: { customer?: MollieLink };
};

/**
 * Decimal places of a currency's amounts at Mollie (its multicurrency table): two, except the
 * króna and the yen. Our integer "cents" are always the currency's smallest unit.
 */
export function mollieDecimals(currency: string): 0 | 2 {
  return currency === "ISK" || currency === "JPY" ? 0 : 2;
}

/** Integer minor units to Mollie's string: SEK 10900 → "109.00", JPY 500 → "500". */
export function toMollieAmount(m: Money): MollieAmount {
  if (!Number.isInteger(m.cents) || m.cents < 0) throw new Error(`bad amount ${m.cents}`);
  if (!/^[A-Z]{3}$/.test(m.currency)) throw new Error(`bad currency ${m.currency}`);
  if (mollieDecimals(m.currency) === 0) return { value: String(m.cents), currency: m.currency };
  const value = `${Math.floor(m.cents / 100)}.${String(m.cents % 100).padStart(2, "0")}`;
  return { value, currency: m.currency };
}

/** Mollie's "12.34" (or "500" for zero-decimal currencies) back to integer minor units, without floating point. */
export function fromMollieAmount(a: MollieAmount): Money {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(a.value);
  if (!match) throw new PaymentProviderError(502, "Bad Gateway", `unexpected amount ${a.value}`);
  if (mollieDecimals(a.currency) === 0) {
    if (Number(match[2] ?? "0") !== 0)
      throw new PaymentProviderError(502, "Bad Gateway", `unexpected amount ${a.value}`);
    return { cents: Number(match[1]), currency: a.currency };
  }
  return { cents: Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0")), currency: a.currency };
}

/** A signed amount ("-12.34": a settlement's refunds, chargebacks, a negative payout) to integer minor units. */
export function fromMollieSignedAmount(a: MollieAmount): SignedMoney {
  const negative = a.value.startsWith("-");
  const m = fromMollieAmount({ value: negative ? a.value.slice(1) : a.value, currency: a.currency });
  return { cents: negative ? -m.cents : m.cents, currency: m.currency };
}

/** Metadata values we set are strings; anything else is dropped. */
function stringsOf(metadata: Record<string, unknown> | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(metadata ?? {})) if (typeof v === "string") out[k] = v;
  return out;
}

function toRefund(r: MollieRefund): ProviderRefund {
  return {
    id: r.id,
    paymentId: r.paymentId,
    amount: fromMollieAmount(r.amount),
    status: r.status,
    metadata: stringsOf(r.metadata),
    createdAt: r.createdAt,
  };
}

function toChargeback(c: MollieChargeback): ProviderChargeback {
  return { id: c.id, amount: fromMollieAmount(c.amount), createdAt: c.createdAt, reversedAt: c.reversedAt ?? null };
}

function toPayment(p: MolliePayment): ProviderPayment {
  const status = (PROVIDER_PAYMENT_STATUSES as readonly string[]).includes(p.status)
    ? (p.status as ProviderPaymentStatus)
    : "open";
  const metadata = stringsOf(p.metadata);
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
    amountChargedBack: p.amountChargedBack ? fromMollieAmount(p.amountChargedBack) : null,
    refunds: (p._embedded?.refunds ?? []).map(toRefund),
    chargebacks: (p._embedded?.chargebacks ?? []).map(toChargeback),
    failureReason: p.details?.failureReason ?? p.details?.bankReasonCode ?? null,
    bankReason: p.details?.bankReason ?? null,
    createdAt: p.createdAt,
    paidAt: p.paidAt ?? null,
    countryCode: payerCountry(p),
    settlement: p.settlementAmount ? fromMollieAmount(p.settlementAmount) : null,
  };
}

const COUNTRY = /^[A-Z]{2}$/;
/**
 * The payer's country as VAT evidence: the card's issuing country, else the country of the IBAN the
 * bank paid from (its first two letters), else what Mollie detected at checkout (countryCode).
 */
function payerCountry(p: MolliePayment): string | null {
  const card = p.details?.cardCountryCode;
  if (typeof card === "string" && COUNTRY.test(card)) return card;
  const iban = p.details?.consumerAccount?.replace(/\s/g, "").toUpperCase().slice(0, 2);
  if (iban && COUNTRY.test(iban)) return iban;
  return typeof p.countryCode === "string" && COUNTRY.test(p.countryCode) ? p.countryCode : null;
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

/**
 * How the adapter waits between attempts: a real timer. Worker tests replace `pause` to record the
 * waits (at least 2 s, a 429's Retry-After) without spending them; the adapter always looks it up here.
 */
export const mollieTiming = { pause: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };

/** How long a methods list is kept: Mollie's activated methods change only when the merchant changes them. */
export const METHODS_TTL_S = 30 * 60;
/** Upper edges (minor units) of the amount bands a methods list is cached for. */
const AMOUNT_BANDS = [100, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000, 100_000, 250_000, 1_000_000];
export function amountBand(cents: number): number {
  const i = AMOUNT_BANDS.findIndex((edge) => cents < edge);
  return i < 0 ? AMOUNT_BANDS.length : i;
}

/** Whether a method's own limits allow `amount` (limits in another currency are Mollie's to check, so they pass). */
function allows(min: Money | null, max: Money | null, amount: Money): boolean {
  if (min && min.currency === amount.currency && amount.cents < min.cents) return false;
  if (max && max.currency === amount.currency && amount.cents > max.cents) return false;
  return true;
}

/** Retry-After in seconds (RFC 9110; an HTTP date is ignored), as milliseconds; null when absent or unreadable. */
function retryAfterMs(header: string | null): number | null {
  if (!header || !/^\d{1,6}$/.test(header.trim())) return null;
  return Number(header.trim()) * 1000;
}

/** A settlement as Mollie lists it (GET /v2/settlements): what we read of it. */
type MollieSettlement = {
  id: string;
  reference?: string | null;
  status: string;
  amount: MollieAmount;
  createdAt: string;
  settledAt?: string | null;
  /** Year → month → its revenue and costs (the fees), each with net, VAT and gross. */
  periods?: Record<
    string,
    Record<string, { costs?: { amountGross: MollieAmount; amountVat?: MollieAmount | null }[] }>
  > | null;
};
type MollieSettlementItem = {
  id: string;
  paymentId?: string;
  settlementAmount?: MollieAmount | null;
};
/** The most pages of one list read (250 a page): a settlement has far fewer items, a loop never runs away. */
const MAX_PAGES = 200;

export class MollieProvider implements PaymentProvider, SettlementSource {
  readonly name = "mollie" as const;
  /**
   * The mode every answer must be in: a live_ key's objects are live, a test_ key's test; an
   * organisation access token's are test when it asks in test mode, else live.
   */
  private get mode(): "live" | "test" {
    if (this.apiKey.startsWith("access_")) return this.org.testmode ? "test" : "live";
    return this.apiKey.startsWith("live_") ? "live" : "test";
  }
  constructor(
    private readonly apiKey: string,
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
    private readonly base = MOLLIE_API,
    /** The pause between attempts. */
    private readonly pause: (ms: number) => Promise<void> = (ms) => mollieTiming.pause(ms),
    /**
     * With an organisation access token (a company with several websites, decision 206): the brand's
     * website profile, sent where Mollie needs it (payments, methods), and test mode outside production
     * (Mollie's `testmode`). A profile's own API key carries both itself and sends neither.
     */
    private readonly org: { profileId: string | null; testmode: boolean } = { profileId: null, testmode: false },
  ) {}

  /**
   * One request. A POST is retried while its outcome is unknown (network error, timeout, 5xx) with
   * the same body and Idempotency-Key, so Mollie does it at most once; a 429 is waited out once
   * (Retry-After, else the usual pause). Once an attempt's outcome was unknown, any later refusal
   * (409, 429, 422 "already refunded") is thrown as unknown too: the first attempt may have been done.
   */
  private async call<T>(
    method: "GET" | "POST",
    path: string,
    o: { body?: unknown; idempotencyKey?: string; notFound?: "null" } = {},
  ): Promise<T | null> {
    let doubt = false;
    let waitedOut429 = false;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt<T>(method, path, o);
      } catch (e) {
        if (!(e instanceof PaymentProviderError)) throw e;
        const error = doubt ? new PaymentProviderError(e.status, e.title, e.message, e.field, true) : e;
        const pauseMs = RETRY_PAUSES_MS[attempt - 1] ?? RETRY_PAUSES_MS[RETRY_PAUSES_MS.length - 1]!;
        if (e.status === 429 && !doubt && !waitedOut429 && attempt < MOLLIE_ATTEMPTS) {
          const waitMs = e.retryAfterMs ?? pauseMs;
          if (waitMs > (method === "GET" ? GET_RETRY_AFTER_MAX_MS : POST_RETRY_AFTER_MAX_MS)) throw error;
          waitedOut429 = true;
          await this.pause(Math.max(waitMs, method === "POST" ? RETRY_PAUSES_MS[0]! : 0));
          continue;
        }
        // A 409 is Mollie still executing the same request: asking again cannot tell more than the re-check.
        if (method === "GET" || !e.unknownOutcome || e.status === 409 || attempt >= MOLLIE_ATTEMPTS) throw error;
        doubt = true;
        await this.pause(pauseMs);
      }
    }
  }

  private async attempt<T>(
    method: "GET" | "POST",
    path: string,
    o: { body?: unknown; idempotencyKey?: string; notFound?: "null" },
  ): Promise<T | null> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.apiKey}`, Accept: "application/hal+json" };
    if (o.body !== undefined) headers["Content-Type"] = "application/json";
    if (o.idempotencyKey) headers["Idempotency-Key"] = o.idempotencyKey;
    let url = `${this.base}${path}`;
    let body = o.body;
    if (this.org.testmode) {
      if (method === "GET") url += `${path.includes("?") ? "&" : "?"}testmode=true`;
      else body = { ...(body as Record<string, unknown> | undefined), testmode: true };
    }
    let response: Response;
    try {
      response = await this.fetcher(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(method === "GET" ? GET_TIMEOUT_MS : POST_TIMEOUT_MS),
      });
    } catch (e) {
      throw new PaymentProviderError(0, "Network Error", e instanceof Error ? e.message : String(e));
    }
    if (response.status === 404 && o.notFound === "null") return null;
    const text = await response.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      // A 2xx we cannot read may still have done the work: 502 marks it unknown, so it is retried with the same key.
      throw new PaymentProviderError(
        response.ok ? 502 : response.status,
        "Bad Gateway",
        "Mollie answered with something that is not JSON",
      );
    }
    // A test_ key answers test objects, a live_ key live ones: anything else is the wrong account, never acted on.
    if (response.ok && this.mode && typeof json.mode === "string" && json.mode !== this.mode)
      throw new PaymentProviderError(502, "Bad Gateway", `Mollie answered a ${json.mode} object to a ${this.mode} key`);
    if (!response.ok) {
      const error = new PaymentProviderError(
        response.status,
        typeof json.title === "string" ? json.title : response.statusText,
        typeof json.detail === "string" ? json.detail : "Mollie refused the request",
        typeof json.field === "string" ? json.field : null,
      );
      error.retryAfterMs = retryAfterMs(response.headers.get("Retry-After"));
      throw error;
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
    if (this.org.profileId) body.profileId = this.org.profileId;
    if (input.digitalGoods) body.digitalGoods = true;
    if (input.customerReference) body.customerReference = input.customerReference;
    return toPayment(
      (await this.call<MolliePayment>("POST", "/payments", { body, idempotencyKey: input.idempotencyKey }))!,
    );
  }

  async getPayment(id: string): Promise<ProviderPayment | null> {
    // Ids come from a webhook body: only Mollie's own shape reaches the URL.
    if (!/^tr_[A-Za-z0-9]{1,64}$/.test(id)) return null;
    // Refunds embedded: a webhook for a refund's or a chargeback's change re-reads them here.
    const p = await this.call<MolliePayment>("GET", `/payments/${id}?embed=refunds,chargebacks`, { notFound: "null" });
    return p ? toPayment(p) : null;
  }

  async createRefund(input: CreateRefundInput): Promise<ProviderRefund> {
    const r = (await this.call<MollieRefund>("POST", `/payments/${encodeURIComponent(input.paymentId)}/refunds`, {
      body: { amount: toMollieAmount(input.amount), description: input.description, metadata: input.metadata },
      idempotencyKey: input.idempotencyKey,
    }))!;
    return toRefund(r);
  }

  /**
   * The methods Mollie has activated for this payer, cached (Cache API, METHODS_TTL_S) per account,
   * country, currency, amount band, sequence type, wallets and locale: a page render or a pay click asks
   * Mollie at most once per window. Within a band the cached list is narrowed to the methods whose own
   * minimum and maximum allow the amount, so a cached list never offers what Mollie would not.
   */
  async listMethods(input: ListMethodsInput): Promise<ProviderMethod[]> {
    const key = await this.methodsCacheKey(input);
    const cache = typeof caches === "undefined" ? null : await caches.open("mollie-methods");
    const hit = await cache?.match(key);
    const methods = hit ? ((await hit.json()) as ProviderMethod[]) : await this.fetchMethods(input);
    if (!hit && cache)
      await cache.put(
        key,
        new Response(JSON.stringify(methods), {
          headers: { "Content-Type": "application/json", "Cache-Control": `max-age=${METHODS_TTL_S}` },
        }),
      );
    return methods.filter((m) => allows(m.minimumAmount, m.maximumAmount, input.amount));
  }

  /** The cache's key: an internal URL naming the account by a hash of its key (never the key itself). */
  private async methodsCacheKey(input: ListMethodsInput): Promise<Request> {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(this.apiKey));
    const account = [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("");
    const parts = [
      account,
      input.country,
      input.amount.currency,
      String(amountBand(input.amount.cents)),
      input.sequenceType,
      (input.includeWallets ?? []).join(",") || "-",
      input.locale ?? "-",
      this.org.profileId ?? "-",
    ];
    return new Request(`https://mollie-methods.cache/${parts.map(encodeURIComponent).join("/")}`);
  }

  private async fetchMethods(input: ListMethodsInput): Promise<ProviderMethod[]> {
    const a = toMollieAmount(input.amount);
    const q = new URLSearchParams({
      "amount[value]": a.value,
      "amount[currency]": a.currency,
      billingCountry: input.country,
      sequenceType: input.sequenceType,
    });
    if (input.locale) q.set("locale", input.locale);
    if (this.org.profileId) q.set("profileId", this.org.profileId);
    // Mollie lists Apple Pay only when the checkout says it can check the browser for it.
    if (input.includeWallets?.length) q.set("includeWallets", input.includeWallets.join(","));
    const r = (await this.call<{
      _embedded: {
        methods: {
          id: string;
          description: string;
          minimumAmount?: MollieAmount;
          maximumAmount?: MollieAmount | null;
          image?: { svg?: string };
        }[];
      };
    }>("GET", `/methods?${q}`))!;
    return r._embedded.methods.map((m) => ({
      id: m.id,
      description: m.description,
      minimumAmount: m.minimumAmount ? fromMollieAmount(m.minimumAmount) : null,
      maximumAmount: m.maximumAmount ? fromMollieAmount(m.maximumAmount) : null,
      // Only Mollie's own https logos (the CSP allows its image host, app/lib/security.server.ts).
      image: m.image?.svg?.startsWith(MOLLIE_IMAGES) ? m.image.svg : null,
    }));
  }

  async createCustomer(input: CreateCustomerInput): Promise<ProviderCustomer> {
    const body: Record<string, unknown> = { name: input.name, email: input.email, metadata: input.metadata };
    if (input.locale) body.locale = input.locale;
    const c = (await this.call<{ id: string; name: string; email: string }>("POST", "/customers", {
      body,
      idempotencyKey: input.idempotencyKey,
    }))!;
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
    const r = (await this.call<{ _embedded: { mandates: MollieMandate[] } }>(
      "GET",
      `/customers/${encodeURIComponent(customerId)}/mandates`,
    ))!;
    return r._embedded.mandates.map((m) => toMandate(m, customerId));
  }

  async listCustomerPayments(customerId: string): Promise<ProviderPayment[]> {
    const r = (await this.call<{ _embedded: { payments: MolliePayment[] } }>(
      "GET",
      `/customers/${encodeURIComponent(customerId)}/payments?limit=50`,
    ))!;
    return r._embedded.payments.map(toPayment);
  }

  /** Every item of a list, page by page along Mollie's own `_links.next` (only ever to Mollie's API). */
  private async listAll<T>(path: string, kind: string): Promise<T[]> {
    const items: T[] = [];
    let next: string | null = path;
    for (let page = 0; next && page < MAX_PAGES; page++) {
      const r: { _embedded?: Record<string, T[]>; _links?: { next?: { href: string } | null } } | null =
        await this.call("GET", next);
      items.push(...(r?._embedded?.[kind] ?? []));
      const href: string | undefined = r?._links?.next?.href;
      next = href?.startsWith(`${this.base}/`) ? href.slice(this.base.length) : null;
    }
    return items;
  }

  async listSettlements(year: number, month: number): Promise<ProviderSettlement[]> {
    const q = new URLSearchParams({ year: String(year), month: String(month), limit: "250" });
    const list = await this.listAll<MollieSettlement>(`/settlements?${q}`, "settlements");
    return list.map((st) => {
      const costs = Object.values(st.periods ?? {}).flatMap((months) =>
        Object.values(months).flatMap((period) => period.costs ?? []),
      );
      const sum = (amounts: (MollieAmount | null | undefined)[]) =>
        amounts.reduce((total, a) => total + (a ? fromMollieSignedAmount(a).cents : 0), 0);
      const currency = st.amount.currency;
      return {
        id: st.id,
        reference: st.reference ?? null,
        status: st.status,
        amount: fromMollieSignedAmount(st.amount),
        fees: { cents: sum(costs.map((c) => c.amountGross)), currency },
        feesVat: { cents: sum(costs.map((c) => c.amountVat)), currency },
        createdAt: st.createdAt,
        settledAt: st.settledAt ?? null,
      };
    });
  }

  async settlementItems(settlementId: string): Promise<ProviderSettlementItem[]> {
    if (!/^stl_[A-Za-z0-9]{1,64}$/.test(settlementId)) return [];
    const out: ProviderSettlementItem[] = [];
    for (const [kind, path] of [
      ["payment", "payments"],
      ["refund", "refunds"],
      ["chargeback", "chargebacks"],
    ] as const) {
      const items = await this.listAll<MollieSettlementItem>(`/settlements/${settlementId}/${path}?limit=250`, path);
      for (const it of items)
        out.push({
          kind,
          id: it.id,
          paymentId: kind === "payment" ? it.id : (it.paymentId ?? ""),
          settled: it.settlementAmount ? fromMollieSignedAmount(it.settlementAmount) : null,
        });
    }
    return out;
  }
}
