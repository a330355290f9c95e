/**
 * The one way a resource route (the /api/*.php calls, translations, dev helpers) answers JSON; files
 * (the manifest, the GDPR download) set their own type. Page loaders and actions return plain
 * objects or `data()` (single fetch); never Remix's `json()`.
 */
export function jsonResponse(data: unknown, init: { status?: number; maxAge?: number; headers?: HeadersInit } = {}) {
  const headers = new Headers(init.headers);
  if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json; charset=utf-8");
  // Brand-wide answers may be cached briefly; anything else is private.
  if (!headers.has("Cache-Control"))
    headers.set("Cache-Control", init.maxAge ? `public, max-age=${init.maxAge}` : "private, no-store");
  return new Response(JSON.stringify(data), { status: init.status ?? 200, headers });
}

/** What a visitor gets from a member-only call: the client logs out silently on it (docs/product/validation.md §8). */
export function authenticationRequired(status: 401 | 403 = 403) {
  return jsonResponse({ error: "authentication_required" }, { status });
}
