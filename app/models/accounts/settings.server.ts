/** Accounts: the settings: a new e-mail address (with its undo), visibility, language and notification mails. */
import {
  type AccountEnv,
  normalizeEmail,
  takeDailyQuota,
  emailState,
  type AccountHolder,
  sendAccountMail,
  confirmAddress,
} from "./common.server";
import type { BrandWithCompany } from "../brand.server";
import { type Member, revokeSessionsStatement, closeRevokedSockets } from "../session.server";
import { getDb, schema, type Db } from "../../../db/client";
import { passwordHashOf } from "./password.server";
import { verifyPassword } from "~/lib/password";
import { mailOwnerOfKnownAddress } from "./signup.server";
import type { BatchItem } from "drizzle-orm/batch";
import { newToken, type TokenKind, tokenHash, MAIL_UNDO_DAYS, tokenUseStatement } from "../tokens.server";
import { eq, and, isNull, gt, inArray, ne, notInArray } from "drizzle-orm";
import { nowS } from "~/lib/dates";
import { releaseHeldMessages } from "../chat.server";
import { type Language, NOTIFICATION_TYPES } from "~/lib/constants";

// ---------------------------------------------------------------------------------------------
// E-mail change

/** At most this many mails a day go to one address asked for as a new one (either mail, silently). */
export const MAIL_CHANGE_MAILS_PER_DAY = 3;

/**
 * Asks for a new address (decision 238): the current password must be right (a stolen session alone
 * cannot take the account over). Then the answer is "sent" whether the address is free or another
 * account's, as for a sign-up (decision 224): a free address gets the confirmation link, a taken one's
 * owner a "someone tried to use your address" mail, and nothing changes until the link is confirmed.
 */
export async function requestMailChange(
  env: AccountEnv,
  brand: BrandWithCompany,
  member: Member,
  newEmail: string,
  password: string,
  origin: string,
): Promise<"wrong_password" | "current" | "sent"> {
  const db = getDb(env.DB);
  const row = await passwordHashOf(db, member.id);
  if (!row || !(await verifyPassword(password, row.passwordHash, env.PASSWORD_PEPPER))) return "wrong_password";
  const email = normalizeEmail(newEmail);
  // The member's own address: telling them so tells nothing about anyone else.
  if (email === member.email) return "current";
  if (!(await takeDailyQuota(env.DB, `mail-change:${brand.id}:${email}`, MAIL_CHANGE_MAILS_PER_DAY))) return "sent";
  const state = await emailState(env.DB, brand.id, email);
  if (state === "free") await mailChangeLink(env, brand, member, email, origin);
  else await mailOwnerOfKnownAddress(env, brand, email, state, origin, "mailChangeKnown");
  return "sent";
}

/**
 * The console's mail change (support, decision 177; `extra` joins the batch, e.g. the audit row): staff
 * may be told that the address is taken. The new address gets the confirmation link.
 */
export async function startMailChange(
  env: AccountEnv,
  brand: BrandWithCompany,
  member: AccountHolder,
  newEmail: string,
  origin: string,
  extra: BatchItem<"sqlite">[] = [],
) {
  const email = normalizeEmail(newEmail);
  if (email === member.email || (await emailState(env.DB, brand.id, email)) !== "free") return "taken" as const;
  await mailChangeLink(env, brand, member, email, origin, extra);
  return "sent" as const;
}

/** Stores the hash of a new address's confirmation link (24 h, single use) and mails the link there. */
async function mailChangeLink(
  env: AccountEnv,
  brand: BrandWithCompany,
  member: AccountHolder,
  email: string,
  origin: string,
  extra: BatchItem<"sqlite">[] = [],
) {
  const db = getDb(env.DB);
  const change = await newToken(db, member.id, "mail_change", email);
  await db.batch([change.statement, ...extra]);
  await sendAccountMail(env, brand, member, "mailChange", change.token, origin, email);
}

/**
 * A mailed link of the e-mail change (`mail_change` or `mail_undo`) while it is usable on this brand's
 * site: its member, its address (the token's payload), the member's address now. Null for a used,
 * expired, forged or other brand's link, or a deleted account.
 */
async function mailLink(d1: D1Database, brand: Pick<BrandWithCompany, "id">, token: string, kind: TokenKind) {
  if (!token) return null;
  const { tokens, users, profiles } = schema;
  const [row] = await getDb(d1)
    .select({
      userId: tokens.userId,
      address: tokens.payload,
      email: users.email,
      name: profiles.name,
      language: users.language,
    })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(
      and(
        eq(tokens.idHash, await tokenHash(token)),
        eq(tokens.kind, kind),
        isNull(tokens.usedAt),
        gt(tokens.expiresAt, nowS()),
        eq(users.brandId, brand.id),
        isNull(users.deletedAt),
      ),
    );
  return row?.address ? { ...row, address: row.address } : null;
}

/** The address a mail-change link (`mail_change`: the new one; `mail_undo`: the previous one) would set, or null. */
export async function mailLinkAddress(
  d1: D1Database,
  brand: Pick<BrandWithCompany, "id">,
  token: string,
  kind: "mail_change" | "mail_undo",
) {
  return (await mailLink(d1, brand, token, kind))?.address ?? null;
}

/**
 * Confirms a new address from its link, on the member's own brand's site. Clicking proves the address,
 * so it is confirmed too (confirmAddress). Then the previous address is told, with the link that undoes
 * the change for MAIL_UNDO_DAYS days (decision 087, told at completion since decision 238).
 */
export async function confirmMailChange(
  env: AccountEnv,
  brand: BrandWithCompany,
  token: string,
  origin: string,
): Promise<"ok" | "invalid" | "taken"> {
  const row = await mailLink(env.DB, brand, token, "mail_change");
  if (!row) return "invalid";
  if ((await emailState(env.DB, brand.id, row.address)) !== "free") return "taken";
  try {
    if (!(await confirmAddress(env, row.userId, token, "mail_change", row.address))) return "invalid";
  } catch (e) {
    // The address got an account between the check and the batch: the unique index decides.
    if (String(e).includes("UNIQUE")) return "taken";
    throw e;
  }
  const db = getDb(env.DB);
  const { tokens } = schema;
  const undo = await newToken(db, row.userId, "mail_undo", row.email);
  // The other addresses this member asked for are not theirs to confirm any more.
  await db.batch([
    undo.statement,
    db.delete(tokens).where(and(eq(tokens.userId, row.userId), eq(tokens.kind, "mail_change"), isNull(tokens.usedAt))),
  ]);
  await sendAccountMail(env, brand, { ...row, id: row.userId }, "mailUndo", undo.token, origin, row.email, {
    email: row.address,
    days: MAIL_UNDO_DAYS,
  });
  return "ok";
}

/**
 * The previous address's undo link: the account gets that address back, pending changes are
 * dropped and every session ends (whoever changed it is signed out), all in one batch. Clicking
 * proves the address, so it counts as confirmed.
 */
export async function undoMailChange(
  env: AccountEnv,
  brand: Pick<BrandWithCompany, "id">,
  token: string,
): Promise<"ok" | "invalid" | "taken"> {
  const db = getDb(env.DB);
  const { tokens, users } = schema;
  const hash = await tokenHash(token);
  const row = await mailLink(env.DB, brand, token, "mail_undo");
  if (!row) return "invalid";
  const previous = row.address;
  // Someone may have signed up with the old address after it was released.
  if (row.email !== previous && (await emailState(env.DB, brand.id, previous)) !== "free") return "taken";
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
