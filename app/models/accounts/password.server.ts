/** Accounts: a forgotten password reset by mail, and a password changed in the settings. */
import { type AccountEnv, normalizeEmail, takeDailyQuota, RESET_MAILS_PER_DAY, sendAccountMail } from "./common.server";
import type { BrandWithCompany } from "../brand.server";
import { schema, getDb, type Db } from "../../../db/client";
import { eq, and, isNull, gt, inArray, ne } from "drizzle-orm";
import { newToken, tokenHash, tokenUseStatement } from "../tokens.server";
import { nowS } from "~/lib/dates";
import { hashPassword, verifyPassword } from "~/lib/password";
import { closeRevokedSockets, revokeSessionsStatement } from "../session.server";

// ---------------------------------------------------------------------------------------------
// Password reset and change

/**
 * Mails a reset link to the account of `email`, if there is one and it has mail left today. The page
 * answers the same in every case (decision 202): whether an address has an account is nobody's business.
 */
export async function requestPasswordReset(env: AccountEnv, brand: BrandWithCompany, email: string, origin: string) {
  const { users, profiles } = schema;
  const db = getDb(env.DB);
  const [user] = await db
    .select({ id: users.id, email: users.email, language: users.language, name: profiles.name })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.brandId, brand.id), eq(users.email, normalizeEmail(email)), isNull(users.deletedAt)));
  if (!user) return "not_found" as const;
  if (!(await takeDailyQuota(env.DB, `reset:${user.id}`, RESET_MAILS_PER_DAY))) return "too_many" as const;
  const { token, statement } = await newToken(db, user.id, "reset");
  await statement;
  await sendAccountMail(env, brand, user, "reset", token, origin);
  return "sent" as const;
}

/**
 * Sets a new password through a reset link: the token is used, the hash replaced, the lockout
 * lifted and every session of the member ended, all in one batch. Returns the member, or null
 * when the link is expired, used or unknown.
 */
export async function resetPassword(env: AccountEnv, token: string, password: string): Promise<string | null> {
  const db = getDb(env.DB);
  const { users, sessions, tokens } = schema;
  const hash = await tokenHash(token);
  const now = nowS();
  // The link's member while the link is usable; the token is used last, in the same batch.
  const mine = db
    .select({ userId: tokens.userId })
    .from(tokens)
    .where(and(eq(tokens.idHash, hash), eq(tokens.kind, "reset"), isNull(tokens.usedAt), gt(tokens.expiresAt, now)));
  const results = await db.batch([
    db
      .update(users)
      .set({ passwordHash: await hashPassword(password, env.PASSWORD_PEPPER), failedLogins: 0, blockedUntil: null })
      .where(inArray(users.id, mine)),
    db.delete(sessions).where(inArray(sessions.userId, mine)),
    db.delete(tokens).where(and(eq(tokens.kind, "reset"), ne(tokens.idHash, hash), inArray(tokens.userId, mine))),
    tokenUseStatement(db, hash, "reset"),
  ]);
  const userId = results[3][0]?.userId ?? null;
  if (userId) await closeRevokedSockets(env, userId);
  return userId;
}

export async function passwordHashOf(db: Db, userId: string) {
  const [row] = await db
    .select({ passwordHash: schema.users.passwordHash })
    .from(schema.users)
    .where(eq(schema.users.id, userId));
  return row;
}

/** Settings: the old password must be right; the member's other sessions end. */
export async function changePassword(
  env: AccountEnv,
  userId: string,
  oldPassword: string,
  password: string,
  keepSessionHash: string | null,
) {
  const db = getDb(env.DB);
  const row = await passwordHashOf(db, userId);
  if (!row || !(await verifyPassword(oldPassword, row.passwordHash, env.PASSWORD_PEPPER))) return false;
  await db.batch([
    db
      .update(schema.users)
      .set({ passwordHash: await hashPassword(password, env.PASSWORD_PEPPER) })
      .where(eq(schema.users.id, userId)),
    revokeSessionsStatement(db, userId, keepSessionHash ?? undefined),
  ]);
  await closeRevokedSockets(env, userId);
  return true;
}
