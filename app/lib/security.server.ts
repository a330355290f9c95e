/** Security headers every response carries (docs/architecture/security.md §5). */
import { MOLLIE_CHECKOUT_ORIGIN } from "./payments/mollie.server";

export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    // The payment methods' logos from Mollie's method list (the method cards; decision 180).
    `img-src 'self' data: blob: ${MOLLIE_CHECKOUT_ORIGIN}`,
    "font-src 'self'",
    `connect-src 'self'${dev ? " ws://localhost:* ws://127.0.0.1:*" : ""} wss:`,
    "object-src 'none'",
    "base-uri 'self'",
    // A pay form without JavaScript is answered by a redirect to the provider's hosted checkout;
    // browsers apply form-action to that redirect too, so the checkout's origin must be allowed.
    `form-action 'self' ${MOLLIE_CHECKOUT_ORIGIN}`,
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'self'",
  ].join("; ");
}

export function withSecurityHeaders(response: Response, nonce: string, dev: boolean): Response {
  // Responses from fetch() or the assets binding can be immutable: copy before changing headers.
  const res = new Response(response.body, response);
  const h = res.headers;
  h.set("Content-Security-Policy", contentSecurityPolicy(nonce, dev));
  h.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  h.set("X-Content-Type-Options", "nosniff");
  h.set("Referrer-Policy", "strict-origin-when-cross-origin");
  h.set("X-Frame-Options", "DENY");
  h.set("Permissions-Policy", "camera=(), microphone=(), payment=(), geolocation=(self)");
  h.set("Cross-Origin-Opener-Policy", "same-origin");
  if (!h.has("Cache-Control")) h.set("Cache-Control", "private, no-store");
  return res;
}

/** Mutating requests must come from our own origin (CSRF defence next to SameSite=Lax cookies). */
export function isSameOrigin(request: Request): boolean {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method)) return true;
  const origin = request.headers.get("Origin");
  if (!origin) {
    // Browsers send Origin on every cross-site POST; a missing one is a same-site form or a non-browser client.
    const fetchSite = request.headers.get("Sec-Fetch-Site");
    return !fetchSite || fetchSite === "same-origin" || fetchSite === "none";
  }
  return origin === new URL(request.url).origin;
}
