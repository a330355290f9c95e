/**
 * POST /api/mail-events: the mail provider's webhook for bounces and spam complaints. The raw body is
 * signed (X-Signature: sha256=<hex HMAC-SHA256 with MAIL_WEBHOOK_SECRET>); anything unsigned, badly
 * signed, malformed or over 16 KB is refused and changes nothing.
 * Body: { "type": "bounce" | "spam_complaint", "email": "…" }.
 */
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { jsonResponse } from "~/lib/json.server";
import { readRawBody } from "~/lib/body.server";
import { mailEventSchema, recordMailEvent, verifyWebhook } from "~/models/notify.server";

const MAX_BODY = 16 * 1024;

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return jsonResponse({ error: "method_not_allowed" }, { status: 405 });
  // Read by the shared reader, counted as it arrives (the signature needs the raw text).
  const body = await readRawBody(request, MAX_BODY);
  if (body === null) return jsonResponse({ error: "too_large" }, { status: 413 });
  if (!(await verifyWebhook(context.env, body, request.headers.get("X-Signature")))) {
    return jsonResponse({ error: "bad_signature" }, { status: 401 });
  }
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return jsonResponse({ error: "invalid" }, { status: 400 });
  }
  const parsed = mailEventSchema().safeParse(data);
  if (!parsed.success) return jsonResponse({ error: "invalid" }, { status: 400 });
  const accounts = await recordMailEvent(context.env.DB, parsed.data.email, parsed.data.type);
  return jsonResponse({ ok: true, accounts });
}
