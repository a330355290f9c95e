import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { e2eEndpoint } from "~/lib/e2e.server";
import { jsonResponse } from "~/lib/json.server";
import { applyThroughOutbox } from "~/wallet/outbox.server";
import { walletBalance } from "~/wallet/wallet.server";

const Change = z.object({
  userId: z.string().min(1).max(100),
  credits: z
    .number()
    .int()
    .safe()
    .refine((n) => n !== 0),
  key: z.string().min(1).max(200).optional(),
  reason: z.enum(["adjustment", "purchase", "signup", "message"]).default("adjustment"),
  refId: z.string().max(100).nullable().default(null),
});

/**
 * End-to-end tests only (ENVIRONMENT=test, on localhost): gives (or takes) a member's credits the way
 * the console does, an outbox row delivered to their wallet at once, so test data holds what a real
 * grant leaves (the wallet's balance and ledger row, D1's copy). Answers 404 everywhere else.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (!e2eEndpoint(request, context.env)) return new Response("Not found", { status: 404 });
  const input = Change.safeParse(await request.json().catch(() => null));
  if (!input.success) return jsonResponse({ error: "bad_change" }, { status: 400 });
  const c = input.data;
  const row = await applyThroughOutbox(context.env, {
    userId: c.userId,
    kind: "apply",
    key: c.key ?? `grant:e2e-${crypto.randomUUID()}`,
    delta: c.credits,
    reason: c.reason,
    refId: c.refId,
  });
  if (!row?.appliedAt || row.refused) return jsonResponse({ error: "not_applied" }, { status: 409 });
  return jsonResponse({ balance: await walletBalance(context.env, c.userId) });
}

export function loader() {
  return new Response("Not found", { status: 404 });
}
