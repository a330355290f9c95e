/** A fake Mollie for the worker tests that run the models on the real Mollie adapter (recorded answers in ./mollie/). */
import { env, SELF } from "cloudflare:test";
import { afterEach, beforeEach, vi } from "vitest";
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { BrandWithCompany } from "../../app/models/brand.server";
import type { PaymentCheck } from "../../app/models/payment-rules";
import { mollieTiming } from "../../app/lib/payments/mollie.server";

export type Call = { method: string; url: URL; key: string | null; body: Record<string, unknown> | null };
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
    };
    calls.push(call);
    const id = `${call.method} ${url.pathname} ${call.key ?? url.search}`;
    seen.set(id, (seen.get(id) ?? 0) + 1);
    return route(call, seen.get(id)!);
  });
  return calls;
}

/** A context whose payments go to the (fake) Mollie; `apiKey`: another account (the methods cache is per account). */
export function mollieContext(checks: PaymentCheck[] = [], apiKey = "test_dHar4XY7LxsDOtmnkVtjNVWXLSlXsM") {
  return {
    env: {
      ...env,
      PAYMENT_PROVIDER: "mollie",
      MOLLIE_API_KEY: apiKey,
      PAYMENT_CHECKS: { send: async (m: PaymentCheck) => void checks.push(m) },
    },
    deliver: (r: Request) => SELF.fetch(r),
  } as unknown as AppLoadContext;
}

export const brand = { id: 1, name: "Amora", refundDays: 14 } as BrandWithCompany;


/** The adapter's waits between attempts, recorded instead of spent (set anew for every test). */
export const pauses: number[] = [];
const realPause = mollieTiming.pause;
beforeEach(() => {
  pauses.length = 0;
  mollieTiming.pause = async (ms) => void pauses.push(ms);
});
afterEach(() => {
  mollieTiming.pause = realPause;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
