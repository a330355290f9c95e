import type { AppLoadContext } from "@remix-run/cloudflare";
import { isProduction } from "./env";

const COUNTRY = /^[A-Z]{2}$/;

/**
 * The visitor's country from request.cf. Outside production a `X-Dev-Country` header or a
 * `dev_country` cookie overrides it, so every country rule can be tried locally.
 */
export function resolveCountry(request: Request, context: AppLoadContext): string {
  if (!isProduction(context.env)) {
    const header = request.headers.get("X-Dev-Country")?.toUpperCase();
    if (header && COUNTRY.test(header)) return header;
    const cookie = /(?:^|;\s*)dev_country=([A-Za-z]{2})/.exec(request.headers.get("Cookie") ?? "")?.[1]?.toUpperCase();
    if (cookie) return cookie;
  }
  const cf = context.cf?.country?.toUpperCase();
  return cf && COUNTRY.test(cf) ? cf : "XX";
}

export function readCookie(request: Request, name: string): string | null {
  const match = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(request.headers.get("Cookie") ?? "");
  return match ? decodeURIComponent(match[1]!) : null;
}

/** A same-site path to return to after a form post; anything else becomes "/". */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}
