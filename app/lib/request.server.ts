import { readCookie } from "./cookies.server";
import { isDeployed, type Env } from "./env";

const COUNTRY = /^[A-Z]{2}$/;

/**
 * The visitor's country from request.cf. Outside production a `X-Dev-Country` header or a
 * `dev_country` cookie overrides it, so every country rule can be tried locally.
 */
export function resolveCountry(
  request: Request,
  context: { env: Pick<Env, "ENVIRONMENT">; cf?: { country?: string } | undefined },
): string {
  if (!isDeployed(context.env)) {
    const header = request.headers.get("X-Dev-Country")?.toUpperCase();
    if (header && COUNTRY.test(header)) return header;
    const cookie = readCookie(request, "dev_country")?.toUpperCase();
    if (cookie && COUNTRY.test(cookie)) return cookie;
  }
  const cf = context.cf?.country?.toUpperCase();
  return cf && COUNTRY.test(cf) ? cf : "XX";
}

const REDIRECT_BASE = "http://same-origin.invalid";

/**
 * A same-origin path to return to after a form post; anything else becomes `fallback`.
 * Checked after URL parsing (browsers drop tabs and CR/LF and read "\\" as "/", so "/\t/evil.test"
 * is "//evil.test"); control characters and backslashes are refused outright. Returns the parsed
 * path, query and hash, so what we send is exactly what the browser will follow. Decision 080.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.length > 2048) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  // "/.//evil.test" parses to the path "//evil.test", which a browser would read as a host.
  if (url.origin !== REDIRECT_BASE || url.pathname.startsWith("//")) return fallback;
  return url.pathname + url.search + url.hash;
}
