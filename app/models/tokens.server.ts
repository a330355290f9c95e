/**
 * Single-use e-mailed links (activation, password reset, e-mail change, reactivation). The link
 * carries a random token; the table stores only its SHA-256, so a leaked table opens nothing.
 * Using a token is one conditional UPDATE: two clicks can never both succeed.
 */
import { nowS } from "~/lib/dates";
import { randomId, sha256 } from "~/lib/password";

export type TokenKind = "activate" | "reset" | "mail_change" | "mail_undo" | "reactivate";

const HOUR = 3600;
/** Days the previous address can undo an e-mail change. */
export const MAIL_UNDO_DAYS = 5;
/** How long each kind of link stays valid. */
export const TOKEN_TTL_S: Record<TokenKind, number> = {
  activate: 7 * 24 * HOUR,
  reset: 2 * HOUR,
  mail_change: 24 * HOUR,
  /** The old address's undo link (issue 12): a few days, longer than the change link itself. */
  mail_undo: MAIL_UNDO_DAYS * 24 * HOUR,
  reactivate: 14 * 24 * HOUR,
};


/** A new token and the statement that stores it (batch it with whatever else must happen). */
export async function newToken(d1: D1Database, userId: string, kind: TokenKind, payload: string | null = null, now = nowS()) {
  const token = randomId(24);
  const statement = d1
    .prepare("INSERT INTO tokens (id_hash, user_id, kind, payload, expires_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
    .bind(await sha256(token), userId, kind, payload, now + TOKEN_TTL_S[kind], now);
  return { token, statement };
}

/** Whether a link is still usable (to show its form), without using it. */
export async function peekToken(d1: D1Database, token: string, kind: TokenKind) {
  if (!token) return null;
  return d1
    .prepare("SELECT user_id, payload FROM tokens WHERE id_hash = ?1 AND kind = ?2 AND used_at IS NULL AND expires_at > ?3")
    .bind(await sha256(token), kind, nowS())
    .first<{ user_id: string; payload: string | null }>();
}

/** The statement that uses a token; `meta.changes === 1` (or a returned row) means it was valid. */
export async function useTokenStatement(d1: D1Database, token: string, kind: TokenKind) {
  return d1
    .prepare(
      "UPDATE tokens SET used_at = ?3 WHERE id_hash = ?1 AND kind = ?2 AND used_at IS NULL AND expires_at > ?3 RETURNING user_id, payload",
    )
    .bind(await sha256(token), kind, nowS());
}

/** Uses a token; returns its member and payload, or null when expired, used or unknown. */
export async function consumeToken(d1: D1Database, token: string, kind: TokenKind) {
  if (!token) return null;
  return (await useTokenStatement(d1, token, kind)).first<{ user_id: string; payload: string | null }>();
}

/** A subquery-friendly hash for statements that must act on a token's member in the same batch. */
export const tokenHash = sha256;
