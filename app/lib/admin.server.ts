/**
 * The operator's calls (/api/admin/*): a bearer token, the ADMIN_TOKEN secret. Without a configured
 * token (or with one too short to resist guessing) every admin call is refused; a token is compared in
 * constant time (both sides hashed first, so neither the length nor a prefix leaks). Decision 124.
 */
import type { Env } from "./env";
import { jsonResponse } from "./json.server";

/** A shorter token is treated as no token: the admin calls stay closed. */
export const ADMIN_TOKEN_MIN_LENGTH = 32;

const sha256 = (s: string) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(s));

/** Whether the request carries the operator's token ("Authorization: Bearer <ADMIN_TOKEN>"). */
export async function isAdmin(request: Request, env: Pick<Env, "ADMIN_TOKEN">): Promise<boolean> {
  const token = env.ADMIN_TOKEN ?? "";
  if (token.length < ADMIN_TOKEN_MIN_LENGTH) return false;
  const given = /^Bearer ([\x21-\x7e]{1,512})$/.exec(request.headers.get("Authorization") ?? "")?.[1] ?? "";
  const [a, b] = (await Promise.all([sha256(given), sha256(token)])).map((d) => new Uint8Array(d)) as [
    Uint8Array,
    Uint8Array,
  ];
  // Every byte of the two digests is compared, whatever differs first.
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/** The answer to a call without the operator's token (nothing is done). */
export const adminRequired = () =>
  jsonResponse({ error: "unauthorized" }, { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="admin"' } });
