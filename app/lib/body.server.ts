/**
 * The one place request bodies are read (docs/architecture/security.md §5). Anything malformed (a JSON, text/plain,
 * missing-type or broken multipart body to a form action, broken JSON to a JSON call) is answered
 * 400 with a translated message before the action does anything; an oversized one 413. Decision 081.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { pageContext } from "./page.server";

/** Form posts carry small fields; uploads say how much they allow. */
export const MAX_FORM_BYTES = 64 * 1024;

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

const mediaType = (request: Request) => (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();

async function refusal(
  request: Request,
  context: AppLoadContext,
  status: 400 | 413,
  asJson: boolean,
): Promise<Response> {
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
 * The body's bytes, at most `maxBytes`: a body sent without Content-Length (chunked) is counted as it
 * arrives, so the limit holds whatever the headers say; null when it is larger.
 */
async function cappedBytes(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return bytes;
}

/**
 * A machine's raw body (a provider's webhook that signs or names what it sends), at most `maxBytes`
 * however it is sent; null when it is larger or cannot be read. The callers answer as their sender expects.
 */
export async function readRawBody(request: Request, maxBytes: number): Promise<string | null> {
  if (tooLarge(request, maxBytes)) return null;
  const bytes = await cappedBytes(request, maxBytes).catch(() => null);
  return bytes ? new TextDecoder().decode(bytes) : null;
}

/** The form fields of the body's bytes, read as the request's own Content-Type says (multipart boundary included). */
const formOf = (request: Request, bytes: Uint8Array<ArrayBuffer>) =>
  new Response(bytes, { headers: { "Content-Type": request.headers.get("Content-Type") ?? "" } }).formData();

/**
 * The form fields of a form post (url-encoded or multipart). Throws a 400/413 Response for anything
 * else, so an action never sees a half-read body.
 */
export async function readForm(
  request: Request,
  context: AppLoadContext,
  o: { maxBytes?: number } = {},
): Promise<FormData> {
  const maxBytes = o.maxBytes ?? MAX_FORM_BYTES;
  if (tooLarge(request, maxBytes)) throw await refusal(request, context, 413, false);
  const type = mediaType(request);
  if (!FORM_TYPES.includes(type)) {
    // A post with no body at all (a script's fetch) has no fields, which the action judges.
    if (!type && (await isEmpty(request))) return new FormData();
    throw await refusal(request, context, 400, false);
  }
  const bytes = await cappedBytes(request, maxBytes);
  if (!bytes) throw await refusal(request, context, 413, false);
  try {
    return await formOf(request, bytes);
  } catch {
    throw await refusal(request, context, 400, false);
  }
}

/**
 * The fields of a call to a JSON endpoint (/api/*.php): a JSON object or a url-encoded/multipart form.
 * Broken JSON, a non-object or another type is a 400 JSON answer; an empty body is no fields.
 */
export async function readFields(
  request: Request,
  context: AppLoadContext,
  o: { maxBytes?: number } = {},
): Promise<Record<string, unknown>> {
  const maxBytes = o.maxBytes ?? MAX_FORM_BYTES;
  if (tooLarge(request, maxBytes)) throw await refusal(request, context, 413, true);
  const type = mediaType(request);
  const known = type === "application/json" || FORM_TYPES.includes(type);
  const bytes = known ? await cappedBytes(request, maxBytes) : null;
  if (known && !bytes) throw await refusal(request, context, 413, true);
  if (type === "application/json") {
    const text = new TextDecoder().decode(bytes!);
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
    return Object.fromEntries(await formOf(request, bytes!));
  } catch {
    throw await refusal(request, context, 400, true);
  }
}
