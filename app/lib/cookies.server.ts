/**
 * The one place the site reads its cookies (session, device, language, site entry, payment country,
 * tracking, development country, the auth flow). A cookie is the client's input: whatever another
 * host or a scanner planted must not fail the page. A malformed, oversized or wrongly signed value
 * is treated as absent, so the visitor gets the page they would get without it (decision 164).
 */
import type { Cookie, SessionStorage } from "@remix-run/cloudflare";

/** Browsers keep at most about 4 KB per cookie; anything longer was not written by us. */
export const MAX_COOKIE_VALUE = 4096;

/** The undecoded value of the first `name=` cookie in a Cookie header, or null (absent, oversized, control characters). */
function rawCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    if (value.length > MAX_COOKIE_VALUE || /[\u0000-\u001f\u007f]/.test(value)) return null;
    return value;
  }
  return null;
}

/** A plain cookie's decoded value from a Cookie header; null when absent or malformed. */
export function cookieFromHeader(header: string | null | undefined, name: string): string | null {
  const raw = rawCookie(header, name);
  if (raw === null) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** A plain cookie's decoded value; null when absent or malformed. */
export function readCookie(request: Request, name: string): string | null {
  return cookieFromHeader(request.headers.get("Cookie"), name);
}

/**
 * A signed Remix cookie's value; null when absent, malformed or wrongly signed. Remix 2's signature
 * check throws on a value that is not base64 (atob), which would answer 500 on every page.
 */
export async function readSignedCookie(request: Request, cookie: Cookie): Promise<unknown> {
  const raw = rawCookie(request.headers.get("Cookie"), cookie.name);
  if (raw === null) return null;
  try {
    return await cookie.parse(`${cookie.name}=${raw}`);
  } catch {
    return null;
  }
}

/** A cookie session storage whose malformed cookie gives a new, empty session instead of an error. */
export function guardedSessionStorage(storage: SessionStorage): SessionStorage {
  return {
    ...storage,
    async getSession(cookieHeader, options) {
      try {
        return await storage.getSession(cookieHeader, options);
      } catch {
        return storage.getSession(null);
      }
    },
  };
}
