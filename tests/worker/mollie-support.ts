/** A fake Mollie for the worker tests that run the models on the real Mollie adapter (recorded answers in ./mollie/). */
import { env, SELF } from "cloudflare:test";
import { vi } from "vitest";
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { BrandWithCompany } from "../../app/models/brand.server";
import type { PaymentCheck } from "../../app/models/payment-rules";
import mandatesList from "./mollie/mandates-list.json";
import mandatesInvalid from "./mollie/mandates-list-invalid.json";

export type Call = {
  method: string;
  url: URL;
  key: string | null;
  body: Record<string, unknown> | null;
  /** The Authorization header's key: which company's account the call was made with. */
  auth: string | null;
};
export type Handler = (call: Call, attempt: number) => Response | Promise<Response>;

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/hal+json" } });
export const timeout = () => {
  throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
};
export const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** A fake Mollie: `route` answers each call; `calls` records them (attempt = how often this key was seen). */
export function fakeMollie(route: Handler) {
  const calls: Call[] = [];
  const seen = new Map<string, number>();
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const call: Call = {
      method: init?.method ?? "GET",
      url,
      key: headers.get("Idempotency-Key"),
      body: init?.body ? JSON.parse(String(init.body)) : null,
      auth: headers.get("Authorization")?.replace(/^Bearer /, "") ?? null,
    };
    calls.push(call);
    const id = `${call.method} ${url.pathname} ${call.key ?? url.search}`;
    seen.set(id, (seen.get(id) ?? 0) + 1);
    return route(call, seen.get(id)!);
  });
  return calls;
}

/**
 * The demo companies' test keys (decision 206: one Mollie account each), shaped as Mollie issues them.
 * New for every test file (setup-shared-runtime.ts): the methods list is cached per account in the
 * Cache API, which outlives a file in the runtime the files share and cannot be emptied.
 */
export let AMORA_KEY = "";
export let HERZKLANG_KEY = "";
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const mollieKey = () => `test_${Array.from(crypto.getRandomValues(new Uint8Array(30)), (b) => ALNUM[b % 62]).join("")}`;
export function newMollieKeys() {
  AMORA_KEY = mollieKey();
  HERZKLANG_KEY = mollieKey();
}
/** Amora Media B.V.'s account, where the Amora brand (id 1) pays. */
export const AMORA = { account: "AMORA", profileId: null };

/**
 * A context whose payments go to the (fake) Mollie, each company with its own key; `apiKey`: Amora's
 * account with another key (the methods cache is per key).
 */
export function mollieContext(checks: PaymentCheck[] = [], apiKey = AMORA_KEY) {
  return {
    env: {
      ...env,
      PAYMENT_PROVIDER: "mollie",
      MOLLIE_API_KEY_AMORA: apiKey,
      MOLLIE_API_KEY_HERZKLANG: HERZKLANG_KEY,
      PAYMENT_CHECKS: { send: async (m: PaymentCheck) => void checks.push(m) },
    },
    deliver: (r: Request) => SELF.fetch(r),
  } as unknown as AppLoadContext;
}

/**
 * The customer's mandates as Mollie lists them (GET /customers/{id}/mandates): the recording where the
 * card mandate mdt_h3gAaD5zP is valid, or the one where it became invalid; null for any other call.
 */
export function mandatesAnswer(call: Call, o: { invalid?: boolean } = {}): Response | null {
  if (call.method !== "GET" || !/^\/v2\/customers\/[^/]+\/mandates$/.test(call.url.pathname)) return null;
  return json(200, clone(o.invalid ? mandatesInvalid : mandatesList));
}

/** A list answer as Mollie sends it (count, _embedded, and its _links: self, previous, next, documentation). */
export function listAnswer(kind: "payments" | "mandates", call: Call, items: unknown[]) {
  return json(200, {
    count: items.length,
    _embedded: { [kind]: items },
    _links: {
      self: { href: `https://api.mollie.com${call.url.pathname}${call.url.search}`, type: "application/hal+json" },
      previous: null,
      next: null,
      documentation: { href: `https://docs.mollie.com/reference/list-customer-${kind}`, type: "text/html" },
    },
  });
}

export const brand = {
  id: 1,
  name: "Amora",
  refundDays: 14,
  mollieProfileId: null,
  company: { id: 1, mollieAccount: "AMORA" },
} as BrandWithCompany;

/** The adapter's waits between attempts, recorded instead of spent (setup-shared-runtime.ts empties it for every test). */
export const pauses: number[] = [];
