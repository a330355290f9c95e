/** Accounts: the settings: a new e-mail address (with its undo), visibility, language and notification mails. */
import {
  type AccountEnv,
  type AccountHolder,
  normalizeEmail,
  emailState,
  sendAccountMail,
  confirmAddress,
} from "./common.server";
import type { BrandWithCompany } from "../brand.server";
import { type Member, revokeSessionsStatement, closeRevokedSockets } from "../session.server";
import { getDb, schema, type Db } from "../../../db/client";
import { passwordHashOf } from "./password.server";
import { verifyPassword } from "~/lib/password";
import type { BatchItem } from "drizzle-orm/batch";
import { newToken, MAIL_UNDO_DAYS, tokenHash, tokenUseStatement } from "../tokens.server";
import { eq, and, isNull, gt, inArray, ne, notInArray } from "drizzle-orm";
import { nowS } from "~/lib/dates";
import { releaseHeldMessages } from "../chat.server";
import { type Language, NOTIFICATION_TYPES } from "~/lib/constants";

// ---------------------------------------------------------------------------------------------
// E-mail change

/**
 * Asks for a new address: the current password must be right (a stolen session alone cannot take
 * the account over), the new address gets the confirmation link, and the current address is told
 * at once with a link that undoes the change for MAIL_UNDO_DAYS days (decision 087).
 */
export async function requestMailChange(
  env: AccountEnv,
  brand: BrandWithCompany,
  member: Member,
  newEmail: string,
  password: string,
  origin: string,
) {
  const db = getDb(env.DB);
  const row = await passwordHashOf(db, member.id);
  if (!row || !(await verifyPassword(password, row.passwordHash, env.PASSWORD_PEPPER)))
    return "wrong_password" as const;
  return startMailChange(env, brand, member, newEmail, origin);
}

/**
 * The mail change itself, once the asker is known to be the member (their password, or support in
 * the console, decision 177; `extra` joins the batch, e.g. the audit row): the new address gets the
 * confirmation link, the current one is told at once with the undo link.
 */
export async function startMailChange(
  env: AccountEnv,
  brand: BrandWithCompany,
  member: AccountHolder,
  newEmail: string,
  origin: string,
  extra: BatchItem<"sqlite">[] = [],
) {
  const db = getDb(env.DB);
  const email = normalizeEmail(newEmail);
  if (email === member.email || (await emailState(env.DB, brand.id, email)) !== "free") return "taken" as const;
  const change = await newToken(db, member.id, "mail_change", email);
  const undo = await newToken(db, member.id, "mail_undo", member.email);
  await db.batch([change.statement, undo.statement, ...extra]);
  await sendAccountMail(env, brand, member, "mailChange", change.token, origin, email);
  await sendAccountMail(env, brand, member, "mailUndo", undo.token, origin, member.email, {
    email,
    days: MAIL_UNDO_DAYS,
  });
  return "sent" as const;
}

/** Confirms a new address from its link. Clicking proves the address, so it is confirmed too (confirmAddress). */
export async function confirmMailChange(env: AccountEnv, token: string): Promise<"ok" | "invalid" | "taken"> {
  const { tokens, users } = schema;
  const [row] = await getDb(env.DB)
    .select({ userId: tokens.userId, newEmail: tokens.payload, brandId: users.brandId })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(
      and(
        eq(tokens.idHash, await tokenHash(token)),
        eq(tokens.kind, "mail_change"),
        isNull(tokens.usedAt),
        gt(tokens.expiresAt, nowS()),
        isNull(users.deletedAt),
      ),
    );
  if (!row?.newEmail) return "invalid";
  if ((await emailState(env.DB, row.brandId, row.newEmail)) !== "free") return "taken";
  try {
    return (await confirmAddress(env, row.userId, token, "mail_change", row.newEmail)) ? "ok" : "invalid";
  } catch (e) {
    // The address got an account between the check and the batch: the unique index decides.
    if (String(e).includes("UNIQUE")) return "taken";
    throw e;
  }
}

/**
 * The previous address's undo link: the account gets that address back, pending changes are
 * dropped and every session ends (whoever changed it is signed out), all in one batch. Clicking
 * proves the address, so it counts as confirmed.
 */
export async function undoMailChange(env: AccountEnv, token: string): Promise<"ok" | "invalid" | "taken"> {
  const db = getDb(env.DB);
  const { tokens, users } = schema;
  const hash = await tokenHash(token);
  const [row] = await db
    .select({ userId: tokens.userId, payload: tokens.payload, email: users.email, brandId: users.brandId })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(
      and(
        eq(tokens.idHash, hash),
        eq(tokens.kind, "mail_undo"),
        isNull(tokens.usedAt),
        gt(tokens.expiresAt, nowS()),
        isNull(users.deletedAt),
      ),
    );
  if (!row?.payload) return "invalid";
  const previous = row.payload;
  // Someone may have signed up with the old address after it was released.
  if (row.email !== previous && (await emailState(env.DB, row.brandId, previous)) !== "free") return "taken";
  try {
    const [, , , used] = await db.batch([
      db.update(users).set({ email: previous, status: "confirmed" }).where(eq(users.id, row.userId)),
      db
        .delete(tokens)
        .where(
          and(
            eq(tokens.userId, row.userId),
            inArray(tokens.kind, ["mail_change", "mail_undo"]),
            ne(tokens.idHash, hash),
          ),
        ),
      revokeSessionsStatement(db, row.userId),
      tokenUseStatement(db, hash, "mail_undo"),
    ]);
    if (!used.length) return "invalid";
  } catch (e) {
    if (String(e).includes("UNIQUE")) return "taken";
    throw e;
  }
  await closeRevokedSockets(env, row.userId);
  // Confirmed now: anything held until the address was confirmed goes out (as in confirmAddress).
  await releaseHeldMessages(env, row.userId);
  return "ok";
}

// ---------------------------------------------------------------------------------------------
// Simple settings

export async function setInvisible(d1: D1Database, userId: string, invisible: boolean) {
  await getDb(d1).update(schema.users).set({ invisible }).where(eq(schema.users.id, userId));
}

export async function setLanguage(d1: D1Database, userId: string, lng: Language) {
  await getDb(d1).update(schema.users).set({ language: lng }).where(eq(schema.users.id, userId));
}

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type DisabledReason = "user" | "spam_complaint" | "bounce" | "list_unsubscribe";

export async function notificationSettings(d1: D1Database, userId: string) {
  const { notificationsDisabled: nd } = schema;
  const results = await getDb(d1).select({ type: nd.type, reason: nd.reason }).from(nd).where(eq(nd.userId, userId));
  const disabled = new Map(results.map((r) => [r.type, r.reason]));
  return NOTIFICATION_TYPES.map((type) => ({ type, enabled: !disabled.has(type), reason: disabled.get(type) ?? null }));
}

/** Saves which types the member receives. Re-enabling a type also lifts a bounce/complaint block. */
export async function saveNotificationSettings(d1: D1Database, userId: string, enabled: string[]) {
  const db = getDb(d1);
  await db.batch(notificationSettingsStatements(db, userId, enabled));
}

/** The statements of saveNotificationSettings, for a batch that also holds its audit row (the console). */
export function notificationSettingsStatements(db: Db, userId: string, enabled: readonly string[]) {
  const off = NOTIFICATION_TYPES.filter((type) => !enabled.includes(type));
  const { notificationsDisabled: nd } = schema;
  return [
    db.delete(nd).where(and(eq(nd.userId, userId), off.length ? notInArray(nd.type, off) : undefined)),
    ...off.map((type) => db.insert(nd).values({ userId, type, reason: "user" }).onConflictDoNothing()),
  ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];
}
