/**
 * POST /age-check/response: the OpenID4VP response_uri (response_mode direct_post). The wallet posts
 * `vp_token` (JSON {"av": ["<DeviceResponse>"]}) and `state`; the answer is JSON as OpenID4VP says:
 * 200, with the redirect_uri carrying a response_code for the same-device link (none for the QR code),
 * or 400 `invalid_request`. Decisions 185, 198.
 */
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { readRawBody } from "~/lib/body.server";
import { AGE_RESPONSE_MAX_BYTES, acceptResponse } from "~/models/age-check.server";
import { getBrandByHost, linkOrigin } from "~/models/brand.server";

const NO_STORE = { "Cache-Control": "no-store" };

export const loader = () => new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });

export async function action({ request, context }: ActionFunctionArgs) {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    return Response.json({ error: "invalid_request" }, { status: 400, headers: NO_STORE });
  }
  const raw = await readRawBody(request, AGE_RESPONSE_MAX_BYTES);
  if (raw === null) return Response.json({ error: "invalid_request" }, { status: 413, headers: NO_STORE });
  const form = new URLSearchParams(raw);
  // The development wallet posts through the Worker itself: its request may carry no Host header.
  const brand = await getBrandByHost(context.env, request.headers.get("Host") ?? new URL(request.url).host);
  const outcome = await acceptResponse(context.env, linkOrigin(brand, context.env, request), {
    vpToken: form.get("vp_token"),
    state: form.get("state"),
  });
  return outcome.status === 200
    ? Response.json(outcome.redirectTo ? { redirect_uri: outcome.redirectTo } : {}, { headers: NO_STORE })
    : Response.json(
        { error: outcome.error, ...(outcome.reason ? { error_description: outcome.reason } : {}) },
        { status: 400, headers: NO_STORE },
      );
}
