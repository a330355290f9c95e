/** JSON answers of the /api/*.php calls. */
export function jsonResponse(data: unknown, init: { status?: number; maxAge?: number; headers?: Record<string, string> } = {}) {
  return new Response(JSON.stringify(data), {
    status: init.status ?? 200,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      // Brand-wide answers may be cached briefly; anything else is private.
      "Cache-Control": init.maxAge ? `public, max-age=${init.maxAge}` : "private, no-store",
      ...init.headers,
    },
  });
}

/** What a visitor gets from a member-only call: the client logs out silently on it (SPEC section 8). */
export function authenticationRequired(status: 401 | 403 = 403) {
  return jsonResponse({ error: "authentication_required" }, { status });
}
