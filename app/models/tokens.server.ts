/**
 * Single-use e-mailed links (activation, password reset, e-mail change, reactivation). The link
 * carries a random token; the table stores only its SHA-256, so a leaked table opens nothing.
 * Using a token is one conditional UPDATE: two clicks can never both succeed.
 */
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { getDb, schema, type Db } from "../../db/client";
import { nowS } from "~/lib/dates";
import { randomId, sha256 } from "~/lib/password";

export type Token = typeof schema.tokens.$inferSelect;
export type TokenKind = Token["kind"];

const HOUR = 3600;
/** Days the previous address can undo an e-mail change. */
export const MAIL_UNDO_DAYS = 5;
/** How long each kind of link stays valid. */
export const TOKEN_TTL_S: Record<TokenKind, number> = {
  activate: 7 * 24 * HOUR,
  reset: 2 * HOUR,
  mail_change: 24 * HOUR,
  /** The old address's undo link (decision 087): a few days, longer than the change link itself. */
  mail_undo: MAIL_UNDO_DAYS * 24 * HOUR,
  reactivate: 14 * 24 * HOUR,
};

/** A new token and the statement that stores it (batch it with whatever else must happen). */
export async function newToken(db: Db, userId: string, kind: TokenKind, payload: string | null = null, now = nowS()) {
  const token = randomId(24);
  const statement = db
    .insert(schema.tokens)
    .values({ idHash: await sha256(token), userId, kind, payload, expiresAt: now + TOKEN_TTL_S[kind], createdAt: now });
  return { token, statement };
}

/** Whether a link is still usable (to show its form), without using it: its member and payload, or null. */
export async function peekToken(
  d1: D1Database,
  token: string,
  kind: TokenKind,
): Promise<Pick<Token, "userId" | "payload"> | null> {
  if (!token) return null;
  const { tokens } = schema;
  const [row] = await getDb(d1)
    .select({ userId: tokens.userId, payload: tokens.payload })
    .from(tokens)
    .where(
      and(
        eq(tokens.idHash, await sha256(token)),
        eq(tokens.kind, kind),
        isNull(tokens.usedAt),
        gt(tokens.expiresAt, nowS()),
      ),
    );
  return row ?? null;
}

/**
 * The statement that uses a token, by its hash (tokenHash); a returned row means it was valid. Not async:
 * a builder statement is thenable, and returning it from an async function would run it there and then.
 */
export function tokenUseStatement(db: Db, hash: string, kind: TokenKind) {
  const { tokens } = schema;
  const now = nowS();
  return db
    .update(tokens)
    .set({ usedAt: now })
    .where(and(eq(tokens.idHash, hash), eq(tokens.kind, kind), isNull(tokens.usedAt), gt(tokens.expiresAt, now)))
    .returning({ userId: tokens.userId, payload: tokens.payload });
}

/**
 * The daily purge: links expired more than a day ago (a late click still finds "expired", not "unknown"),
 * and with them the sign-ups never confirmed (decision 224): what their form collected is kept no longer.
 */
export async function purgeExpiredTokens(d1: D1Database, now: number) {
  const db = getDb(d1);
  await db.batch([
    db.delete(schema.tokens).where(lt(schema.tokens.expiresAt, now - 86_400)),
    db.delete(schema.signupRequests).where(lt(schema.signupRequests.expiresAt, now - 86_400)),
  ]);
}

/** A subquery-friendly hash for statements that must act on a token's member in the same batch. */
export const tokenHash = sha256;
