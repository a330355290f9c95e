import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { PaymentProviderError } from "~/lib/payments/provider";
import { handleWebhook } from "~/models/payments/webhook.server";
import { readRawBody } from "~/lib/body.server";

/**
 * The payment provider's webhook: a POST with only `id=<provider payment id>` (Mollie's form body).
 * Nothing in it is trusted: the model re-fetches the payment and applies its status once. Unknown
 * ids answer 200 as Mollie expects; only an unreachable provider answers 503, so it calls again.
 */
const MAX_BODY = 1024;

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return text("Method Not Allowed", 405);
  const body = await readRawBody(request, MAX_BODY);
  if (body === null) return text("Bad Request", 400);
  const id = new URLSearchParams(body).get("id");
  try {
    await handleWebhook(context, id);
  } catch (e) {
    if (e instanceof PaymentProviderError) return text("Provider unavailable", 503);
    throw e;
  }
  return text("OK", 200);
}

export function loader() {
  return text("Method Not Allowed", 405);
}

function text(body: string, status: number) {
  return new Response(body, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
