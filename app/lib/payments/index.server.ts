/**
 * Which payment provider this Worker talks to: Mollie when PAYMENT_PROVIDER is "mollie" (always in
 * production), otherwise the local sandbox. The sandbox is refused in production, so a misconfigured
 * deploy cannot hand out credits for pretend payments. Every call is made in one account, its
 * company's (decision 206): the key is that company's secret, never another's.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { isDeployed, isLive } from "~/lib/env";
import { mollieAccessToken, mollieKey, mollieKeyName } from "./account";
import { MollieProvider } from "./mollie.server";
import type { PaymentProvider, SettlementSource } from "./provider";
import { SandboxProvider } from "./sandbox.server";

export function paymentProviderName(env: AppLoadContext["env"]): "sandbox" | "mollie" {
  return isDeployed(env) || env.PAYMENT_PROVIDER === "mollie" ? "mollie" : "sandbox";
}

/** The account a call is made in (app/lib/payments/account.ts) and the brand's website profile there. */
export type PaymentTarget = { account: string; profileId: string | null };

export function paymentProvider(context: AppLoadContext, target: PaymentTarget): PaymentProvider {
  const { env } = context;
  if (paymentProviderName(env) === "mollie") {
    const key = mollieKey(env, target.account);
    if (!key)
      throw new Error(
        `The Mollie key of account ${target.account} is not set (wrangler secret put ${mollieKeyName(target.account)})`,
      );
    const organization = key.startsWith("access_");
    if (isLive(env) && !organization && !key.startsWith("live_"))
      throw new Error("Production needs a live_ Mollie API key");
    // Outside production only test mode: a staging or local run never moves real money.
    if (!isLive(env) && !organization && !key.startsWith("test_"))
      throw new Error("Outside production the Mollie API key must be a test_ key");
    if (organization && !target.profileId) throw new Error("An organisation access token needs the brand's profile id");
    return new MollieProvider(key, undefined, undefined, undefined, {
      profileId: organization ? target.profileId : null,
      testmode: organization && !isLive(env),
    });
  }
  return sandboxProvider(context, target.account);
}

/**
 * The sandbox itself (its checkout page needs more than the interface). Throws in production. With an
 * account it sees that account's objects only, as a Mollie key does; without one it is the sandbox's
 * own hosted pages, which find any payment by its id.
 */
export function sandboxProvider(context: AppLoadContext, account?: string): SandboxProvider {
  if (isDeployed(context.env)) throw new Response("Not found", { status: 404 });
  return new SandboxProvider({ db: context.env.DB, deliver: context.deliver, account });
}

/**
 * Where one account's settlements are read (decisions 206, 209): with Mollie, its Settlements API through
 * an organization access token (a payments key cannot read them): the company's key itself when it is
 * one, else its `MOLLIE_ACCESS_TOKEN_<account>`; null when it has none. Locally the sandbox, per account.
 */
export function settlementSource(
  context: Pick<AppLoadContext, "env" | "deliver">,
  account: string,
): SettlementSource | null {
  const { env } = context;
  if (paymentProviderName(env) === "mollie") {
    const key = mollieKey(env, account);
    const token = key?.startsWith("access_") ? key : mollieAccessToken(env, account);
    return token ? new MollieProvider(token) : null;
  }
  return sandboxProvider(context as AppLoadContext, account);
}
