/**
 * Which payment provider this Worker talks to: Mollie when PAYMENT_PROVIDER is "mollie" (always in
 * production, with the MOLLIE_API_KEY secret), otherwise the local sandbox. The sandbox is refused in
 * production, so a misconfigured deploy cannot hand out credits for pretend payments.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { isDeployed, isLive } from "~/lib/env";
import { MollieProvider } from "./mollie.server";
import type { PaymentProvider, SettlementSource } from "./provider";
import { SandboxProvider } from "./sandbox.server";

export function paymentProviderName(env: AppLoadContext["env"]): "sandbox" | "mollie" {
  return isDeployed(env) || env.PAYMENT_PROVIDER === "mollie" ? "mollie" : "sandbox";
}

export function paymentProvider(context: AppLoadContext): PaymentProvider {
  const { env } = context;
  if (paymentProviderName(env) === "mollie") {
    if (!env.MOLLIE_API_KEY) throw new Error("MOLLIE_API_KEY is not set (wrangler secret put MOLLIE_API_KEY)");
    if (isLive(env) && !env.MOLLIE_API_KEY.startsWith("live_"))
      throw new Error("Production needs a live_ Mollie API key");
    // Outside production only test mode: a staging or local run never moves real money.
    if (!isLive(env) && !env.MOLLIE_API_KEY.startsWith("test_"))
      throw new Error("Outside production the Mollie API key must be a test_ key");
    return new MollieProvider(env.MOLLIE_API_KEY);
  }
  return sandboxProvider(context);
}

/** The sandbox itself (its checkout page needs more than the interface). Throws in production. */
export function sandboxProvider(context: AppLoadContext): SandboxProvider {
  if (isDeployed(context.env)) throw new Response("Not found", { status: 404 });
  return new SandboxProvider({ db: context.env.DB, deliver: context.deliver });
}

/**
 * Where settlements are read (decision 209): with Mollie, its Settlements API through the organization
 * access token (a payments key cannot read them); null when none is configured. Locally the sandbox.
 */
export function settlementSource(context: Pick<AppLoadContext, "env" | "deliver">): SettlementSource | null {
  const { env } = context;
  if (paymentProviderName(env) === "mollie")
    return env.MOLLIE_ACCESS_TOKEN?.startsWith("access_") ? new MollieProvider(env.MOLLIE_ACCESS_TOKEN) : null;
  return sandboxProvider(context as AppLoadContext);
}
