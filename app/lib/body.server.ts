/**
 * The one place request bodies are read (DESIGN section 5). Anything malformed (a JSON, text/plain,
 * missing-type or broken multipart body to a form action, broken JSON to a JSON call) is answered
 * 400 with a translated message before the action does anything; an oversized one 413. Decision 081.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { pageContext } from "./page.server";

/** Form posts carry small fields; uploads say how much they allow. */
export const MAX_FORM_BYTES = 64 * 1024;

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

const mediaType = (request: Request) => (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();

async function refusal(request: Request, context: AppLoadContext, status: 400 | 413, asJson: boolean): Promise<Response> {
  const { t } = await pageContext(request, context, "input");
  const message = t(status === 413 ? "body.tooLarge" : "body.malformed");
  const headers = { "Cache-Control": "private, no-store" };
  return asJson
    ? Response.json({ error: status === 413 ? "too_large" : "bad_request", message }, { status, headers })
    : new Response(message, { status, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
}

const isEmpty = async (request: Request) => !request.body || (await request.text()) === "";

function tooLarge(request: Request, maxBytes: number) {
  return Number(request.headers.get("Content-Length") ?? 0) > maxBytes;
}

/**
 * The form fields of a form post (url-encoded or multipart). Throws a 400/413 Response for anything
 * else, so an action never sees a half-read body.
 */
export async function readForm(request: Request, context: AppLoadContext, o: { maxBytes?: number } = {}): Promise<FormData> {
  if (tooLarge(request, o.maxBytes ?? MAX_FORM_BYTES)) throw await refusal(request, context, 413, false);
  const type = mediaType(request);
  if (!FORM_TYPES.includes(type)) {
    // A post with no body at all (a script's fetch) has no fields, which the action judges.
    if (!type && (await isEmpty(request))) return new FormData();
    throw await refusal(request, context, 400, false);
  }
  try {
    return await request.formData();
  } catch {
    throw await refusal(request, context, 400, false);
  }
}

/**
 * The fields of a call to a JSON endpoint (/api/*.php): a JSON object or a url-encoded/multipart form.
 * Broken JSON, a non-object or another type is a 400 JSON answer; an empty body is no fields.
 */
export async function readFields(request: Request, context: AppLoadContext): Promise<Record<string, unknown>> {
  if (tooLarge(request, MAX_FORM_BYTES)) throw await refusal(request, context, 413, true);
  const type = mediaType(request);
  if (type === "application/json") {
    const text = await request.text();
    if (!text.trim()) return {};
    try {
      const body: unknown = JSON.parse(text);
      if (body && typeof body === "object" && !Array.isArray(body)) return body as Record<string, unknown>;
    } catch {
      // falls through to the refusal
    }
    throw await refusal(request, context, 400, true);
  }
  if (!FORM_TYPES.includes(type)) {
    if (!type && (await isEmpty(request))) return {};
    throw await refusal(request, context, 400, true);
  }
  try {
    return Object.fromEntries(await request.formData());
  } catch {
    throw await refusal(request, context, 400, true);
  }
}
