/**
 * Accounts (docs/product/states.md §4, docs/product/validation.md §5 and §8, docs/product/roles.md §6 and
 * docs/product/api.md §7), what every part of app/models/accounts/ shares: quotas, the account mails and
 * their links, the address states, and confirming an address. Routes only parse input and call these
 * functions; the purge is account-purge.server.ts.
 */
import type { Env } from "~/lib/env";
import { nowS } from "~/lib/dates";
import { schema, getDb } from "../../../db/client";
import { sql, and, eq, isNull } from "drizzle-orm";
import { type AccountMailKind, mailerFor, accountMail } from "../mail.server";
import { type BrandWithCompany, copyOf } from "../brand.server";
import { getFixedT } from "~/lib/i18n.server";
import { type Language, REACTIVATION_DAYS } from "~/lib/constants";
import { type TokenKind, tokenUseStatement, tokenHash } from "../tokens.server";
import { releaseHeldMessages } from "../chat.server";
import type { Member } from "../session.server";

/** Password reset mails a member can ask for per day (and a reactivation or known-address mail). */
export const RESET_MAILS_PER_DAY = 3;

export const DAY = 86_400;
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export type AccountEnv = Pick<
  Env,
  "DB" | "ENVIRONMENT" | "MAIL" | "MAIL_FROM" | "PASSWORD_PEPPER" | "CHAT_ROOM" | "MEMBER_HUB" | "METRICS"
>;

// ---------------------------------------------------------------------------------------------
// Quotas and throttling

/**
 * Counts one use of a daily quota (D1 counters, exact) and tells whether it is still within `max`.
 * The key carries the UTC day, so the quota starts afresh "tomorrow".
 */
export async function takeDailyQuota(d1: D1Database, key: string, max: number, now = nowS()): Promise<boolean> {
  const day = Math.floor(now / DAY);
  const { counters } = schema;
  const [row] = await getDb(d1)
    .insert(counters)
    .values({ key: `${key}:${day}`, count: 1, expiresAt: (day + 1) * DAY })
    .onConflictDoUpdate({ target: counters.key, set: { count: sql`${counters.count} + 1` } })
    .returning({ count: counters.count });
  return (row?.count ?? 1) <= max;
}
export const HOUR = 3600;

export type EmailState = "free" | "taken" | "pending_deletion";

export async function emailState(d1: D1Database, brandId: number, email: string): Promise<EmailState> {
  const { users } = schema;
  const [row] = await getDb(d1)
    .select({ deletedAt: users.deletedAt })
    .from(users)
    .where(and(eq(users.brandId, brandId), eq(users.email, normalizeEmail(email))));
  if (!row) return "free";
  return row.deletedAt ? "pending_deletion" : "taken";
}

const LINK_PATH: Record<AccountMailKind, string> = {
  activate: "/activate",
  reset: "/reset-password/do",
  mailChange: "/mail-change/do",
  mailUndo: "/mail-change/undo",
  reactivate: "/reactivate",
  lockout: "/reset-password",
  signupKnown: "/login",
  mailChangeKnown: "/login",
  signupConfirm: "/signup/confirm",
};

export async function sendAccountMail(
  env: AccountEnv,
  brand: BrandWithCompany,
  user: { id: string; email: string; name: string; language: string },
  kind: AccountMailKind,
  token: string | null,
  origin: string,
  to = user.email,
  vars: Record<string, unknown> = {},
) {
  const t = await getFixedT(user.language as Language, "account", copyOf(brand));
  const link = `${origin}${LINK_PATH[kind]}${token ? `?token=${encodeURIComponent(token)}` : ""}`;
  await mailerFor(env).send(
    accountMail(t, kind, {
      brandId: brand.id,
      brandName: brand.mailName || brand.name,
      to,
      name: user.name,
      link,
      vars: { days: REACTIVATION_DAYS, ...vars },
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Confirming an address (activation and a new e-mail address)

/**
 * The one way an address becomes confirmed, for the activation link and a confirmed e-mail change
 * alike: the token is used, then (each only if the statement before changed a row, one batch) the
 * address set, the status confirmed and the profile active; then the messages held until now are
 * delivered. False when the token was not usable or the account is deleted.
 */
export async function confirmAddress(
  env: AccountEnv,
  userId: string,
  token: string,
  kind: TokenKind,
  email?: string,
): Promise<boolean> {
  const db = getDb(env.DB);
  const { users, profiles } = schema;
  // Guarded: each statement changes a row only if the one before did (changes() = 1).
  const [, confirmed] = await db.batch([
    tokenUseStatement(db, await tokenHash(token), kind),
    db
      .update(users)
      .set({ status: "confirmed", email: sql`COALESCE(${email ?? null}, ${users.email})` })
      .where(and(eq(users.id, userId), isNull(users.deletedAt), sql`changes() = 1`)),
    db
      .update(profiles)
      .set({ status: "active" })
      .where(and(eq(profiles.userId, userId), sql`changes() = 1`)),
  ]);
  if (confirmed?.meta.changes !== 1) return false;
  await releaseHeldMessages(env, userId);
  return true;
}

/** Who an account mail goes to and what the account rules read of them (a member or the console's view of one). */
export type AccountHolder = Pick<Member, "id" | "email" | "name" | "language" | "status">;
