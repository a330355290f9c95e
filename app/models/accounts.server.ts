/**
 * Accounts: sign-up, activation, login with lockout, password reset, settings, deletion with
 * reactivation (the purge: account-purge.server.ts), and the GDPR export. Every rule of SPEC sections 4-8 about accounts
 * lives here; routes only parse input and call these functions.
 */
import { countEvent } from "~/lib/metrics.server";
import { and, eq, gt, isNull } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { nowS } from "~/lib/dates";
import { REACTIVATION_DAYS, NOTIFICATION_TYPES, type Language } from "~/lib/constants";
import type { Env } from "~/lib/env";
import { getFixedT } from "~/lib/i18n.server";
import { hashPassword, randomId, verifyPassword } from "~/lib/password";
import type { DELETE_REASONS } from "./account-forms";
import { nicheOf, type BrandWithCompany } from "./brand.server";
import { accountMail, mailerFor, type AccountMailKind } from "./mail.server";
import { closeRevokedSockets, revokeSessionsStatement, type Member } from "./session.server";
import { releaseHeldMessages, startAndSend } from "./chat.server";
import { grantStatements } from "./credits.server";
import { MAIL_UNDO_DAYS, newToken, peekToken, tokenHash, useTokenStatement, type TokenKind } from "./tokens.server";

/** Wrong passwords in a row before the account is blocked, and for how long. */
export const LOGIN_MAX_ATTEMPTS = 5;
export const LOGIN_BLOCK_MINUTES = 15;
/** Password reset and activation mails a member can ask for per day. */
export const RESET_MAILS_PER_DAY = 3;
export const ACTIVATION_MAILS_PER_DAY = 3;

const DAY = 86_400;
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

type AccountEnv = Pick<Env, "DB" | "ENVIRONMENT" | "MAIL" | "MAIL_FROM" | "PASSWORD_PEPPER" | "CHAT_ROOM" | "MEMBER_HUB" | "METRICS">;

// ---------------------------------------------------------------------------------------------
// Quotas and throttling

/**
 * Counts one use of a daily quota (D1 counters, exact) and tells whether it is still within `max`.
 * The key carries the UTC day, so the quota starts afresh "tomorrow".
 */
export async function takeDailyQuota(d1: D1Database, key: string, max: number, now = nowS()): Promise<boolean> {
  const day = Math.floor(now / DAY);
  const row = await d1
    .prepare(
      `INSERT INTO counters (key, count, expires_at) VALUES (?1, 1, ?2)
       ON CONFLICT(key) DO UPDATE SET count = count + 1 RETURNING count`,
    )
    .bind(`${key}:${day}`, (day + 1) * DAY)
    .first<{ count: number }>();
  return (row?.count ?? 1) <= max;
}

/**
 * Abuse throttling by client address (the RATE_LIMITER binding, 30 a minute; simulated locally).
 * Login and reset also key on the e-mail address, so many members behind one address (an office,
 * a test run) do not throttle each other; guessing one account's password is the lockout's job.
 */
export async function withinRateLimit(env: Pick<Env, "RATE_LIMITER" | "DB">, request: Request, action: string, email?: string): Promise<boolean> {
  const ip = clientIp(request);
  if (action === "login" && !(await withinAddressesPerClient(env.DB, ip))) return false;
  if (!env.RATE_LIMITER) return true;
  const { success } = await env.RATE_LIMITER.limit({ key: `${action}:${ip}${email ? `:${normalizeEmail(email)}` : ""}` });
  return success;
}

/** The client's address as Cloudflare saw it ("local" in development). */
export const clientIp = (request: Request) => request.headers.get("CF-Connecting-IP") ?? "local";

/**
 * Distinct addresses one client may fail to log in to per hour: password spraying stops there
 * (issue 12). Only failures count, so many members behind one address (an office, a mobile
 * carrier's NAT, a test run) who log in with their own passwords never throttle each other.
 */
export const LOGIN_ADDRESSES_PER_CLIENT = 20;
const HOUR = 3600;
const sprayKey = (ip: string, hour: number) => `login-addresses:${ip}:${hour}`;

/** Whether this client is still under LOGIN_ADDRESSES_PER_CLIENT failed addresses this hour. */
async function withinAddressesPerClient(d1: D1Database, ip: string, now = nowS()): Promise<boolean> {
  const count = await d1.prepare("SELECT count FROM counters WHERE key = ?1").bind(sprayKey(ip, Math.floor(now / HOUR))).first<number>("count");
  return (count ?? 0) < LOGIN_ADDRESSES_PER_CLIENT;
}

/**
 * A failed login counts its address for the client once an hour (an exact D1 counter: retrying one
 * address does not count again). Two statements that must run next to each other in a batch.
 */
function failedAddressStatements(d1: D1Database, ip: string, email: string, now: number): D1PreparedStatement[] {
  const hour = Math.floor(now / HOUR);
  const expires = (hour + 1) * HOUR;
  return [
    d1.prepare("INSERT OR IGNORE INTO counters (key, count, expires_at) VALUES (?1, 1, ?2)").bind(`login-address:${ip}:${hour}:${email}`, expires),
    d1.prepare(
      `INSERT INTO counters (key, count, expires_at) SELECT ?1, 1, ?2 WHERE changes() = 1
       ON CONFLICT(key) DO UPDATE SET count = count + 1`,
    ).bind(sprayKey(ip, hour), expires),
  ];
}

// ---------------------------------------------------------------------------------------------
// Login and lockout

export type LoginResult =
  | { ok: true; userId: string; language: string }
  | { ok: false; reason: "failed" }
  | { ok: false; reason: "blocked"; minutes: number };

/** Wrong passwords from all clients together before the address is locked for unknown devices. */
export const LOGIN_ACCOUNT_MAX_ATTEMPTS = 20;

/** Who is logging in: the client address, the device cookie's device (if any) and where mailed links point. */
export interface LoginClient {
  ip: string;
  device: { id: string; userId: string } | null;
  origin: string;
}

/**
 * Checks e-mail and password with a lockout that hurts the attacker, not the member (decision 088).
 * A client is the member's known device (the device cookie set at a successful login, for this
 * member) or else the client address. LOGIN_MAX_ATTEMPTS wrong passwords from one client lock the
 * address for that client only, for LOGIN_BLOCK_MINUTES (an exact D1 counter). Wrong passwords
 * from all clients count in users.failed_logins; LOGIN_ACCOUNT_MAX_ATTEMPTS lock the address for
 * every unknown device, while the member's known devices keep working. When a lock starts the
 * member is mailed (once a day). A success resets the counts.
 */
export async function login(
  env: AccountEnv, brand: BrandWithCompany, email: string, password: string, client: LoginClient, now = nowS(),
): Promise<LoginResult> {
  const d1 = env.DB;
  const user = await d1
    .prepare(
      `SELECT u.id, u.email, u.password_hash, u.language, u.blocked_until, p.name,
              (SELECT c.expires_at FROM counters c WHERE c.key = (CASE WHEN u.id = ?6 THEN ?7 ELSE ?3 END) || u.id
                AND c.count >= ?4 AND c.expires_at > ?5) AS client_blocked_until
       FROM users u JOIN profiles p ON p.user_id = u.id
       WHERE u.brand_id = ?1 AND u.email = ?2 AND u.deleted_at IS NULL`,
    )
    .bind(brand.id, normalizeEmail(email), failKeyPrefix(client, false), LOGIN_MAX_ATTEMPTS, now, client.device?.userId ?? "", failKeyPrefix(client, true))
    .first<{ id: string; email: string; password_hash: string; language: string; blocked_until: number | null; name: string; client_blocked_until: number | null }>();
  if (!user) {
    // As slow as a wrong password: a failure does not tell whether the address has an account.
    await verifyPassword(password, await dummyHash(env.PASSWORD_PEPPER), env.PASSWORD_PEPPER);
    await d1.batch(failedAddressStatements(d1, client.ip, normalizeEmail(email), now));
    return { ok: false, reason: "failed" };
  }
  const known = client.device?.userId === user.id;
  const failKey = failKeyPrefix(client, known) + user.id;
  if (user.client_blocked_until) return { ok: false, reason: "blocked", minutes: minutesLeft(user.client_blocked_until, now) };
  if (!known && user.blocked_until && user.blocked_until > now) return { ok: false, reason: "blocked", minutes: minutesLeft(user.blocked_until, now) };
  if (await verifyPassword(password, user.password_hash, env.PASSWORD_PEPPER)) {
    // A running lock for unknown devices stays: the member's success does not give the attacker new tries.
    await d1.batch([
      d1.prepare(
        "UPDATE users SET failed_logins = 0, blocked_until = CASE WHEN blocked_until > ?2 THEN blocked_until END, last_seen_at = ?2 WHERE id = ?1",
      ).bind(user.id, now),
      d1.prepare("DELETE FROM counters WHERE key = ?1").bind(failKey),
    ]);
    return { ok: true, userId: user.id, language: user.language };
  }
  const until = now + LOGIN_BLOCK_MINUTES * 60;
  const [clientRow, accountRow] = await d1.batch<{ count: number; blocked_until: number | null }>([
    // One client's failures within a window of LOGIN_BLOCK_MINUTES; the last one starts its lock.
    d1.prepare(
      `INSERT INTO counters (key, count, expires_at) VALUES (?1, 1, ?2)
       ON CONFLICT(key) DO UPDATE SET
         count = CASE WHEN expires_at <= ?3 THEN 1 ELSE count + 1 END,
         expires_at = CASE WHEN expires_at <= ?3 OR count + 1 >= ?4 THEN ?2 ELSE expires_at END
       RETURNING count`,
    ).bind(failKey, until, now, LOGIN_MAX_ATTEMPTS),
    d1.prepare(
      `UPDATE users SET
         blocked_until = CASE WHEN failed_logins + 1 >= ?2 THEN ?3 ELSE blocked_until END,
         failed_logins = CASE WHEN failed_logins + 1 >= ?2 THEN 0 ELSE failed_logins + 1 END
       WHERE id = ?1 RETURNING blocked_until`,
    ).bind(user.id, LOGIN_ACCOUNT_MAX_ATTEMPTS, until),
    ...failedAddressStatements(d1, client.ip, user.email, now),
  ]);
  const clientLocked = (clientRow?.results[0]?.count ?? 0) >= LOGIN_MAX_ATTEMPTS;
  const accountLocked = accountRow?.results[0]?.blocked_until === until;
  if (clientLocked || accountLocked) {
    if (await takeDailyQuota(d1, `lockout-mail:${user.id}`, 1, now)) {
      await sendAccountMail(env, brand, user, "lockout", null, client.origin, user.email, { minutes: LOGIN_BLOCK_MINUTES });
    }
  }
  if (clientLocked || (accountLocked && !known)) return { ok: false, reason: "blocked", minutes: LOGIN_BLOCK_MINUTES };
  return { ok: false, reason: "failed" };
}

/**
 * The counters key of one client's failed logins (the member's id follows): the device for the
 * member's own known device, else the address (a device cookie of another account counts for nothing,
 * so an attacker cannot rotate cookies to get fresh tries).
 */
const failKeyPrefix = (client: LoginClient, known: boolean) =>
  `login-fail:${known && client.device ? `d:${client.device.id}` : `ip:${client.ip}`}:`;

let dummy: Promise<string> | null = null;
/** A real hash (same iterations) to check unknown addresses against; made once per isolate. */
const dummyHash = (pepper: string) => (dummy ??= hashPassword(randomId(16), pepper));

const minutesLeft = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 60));

// ---------------------------------------------------------------------------------------------
// Sign-up

import { NICHE_WHO, sexualityOf, type Gender, type Seeking, type Tracking } from "./signup-rules";

export type EmailState = "free" | "taken" | "pending_deletion";

export async function emailState(d1: D1Database, brandId: number, email: string): Promise<EmailState> {
  const { users } = schema;
  const [row] = await getDb(d1).select({ deletedAt: users.deletedAt }).from(users)
    .where(and(eq(users.brandId, brandId), eq(users.email, normalizeEmail(email))));
  if (!row) return "free";
  return row.deletedAt ? "pending_deletion" : "taken";
}

export interface SignupInput {
  email: string;
  name: string;
  dateOfBirth: string;
  password: string;
  signupMessage?: string;
  signupProfileId?: string;
  /** Missing answers take the niche's default (NICHE_WHO). */
  gender?: Gender;
  seeking?: Seeking;
}

/**
 * Creates a member: user, (disabled) profile, the brand's sign-up credits through the ledger, and
 * the activation token, all in one D1 batch; then mails the activation link in their language.
 * The form asks gender and whom they look for (the niche's answers preselected, or decided by the
 * gay niche); location is filled in later (/complete-signup).
 */
export async function signup(
  env: AccountEnv,
  brand: BrandWithCompany,
  input: SignupInput,
  o: { tracking: Tracking; language: Language; country: string; origin: string },
): Promise<{ ok: true; userId: string; conversationId: string | null } | { ok: false; error: EmailState }> {
  const email = normalizeEmail(input.email);
  const state = await emailState(env.DB, brand.id, email);
  if (state !== "free") return { ok: false, error: state };
  const d1 = env.DB;
  const id = randomId();
  const credits = Math.max(0, brand.signupCredits);
  const who = NICHE_WHO[nicheOf(brand)];
  const gender = who.fixed ? who.gender : input.gender ?? who.gender;
  const sexuality = sexualityOf(gender, who.fixed ? who.seeking : input.seeking ?? who.seeking);
  const country = brand.countries.includes(o.country) ? o.country : (brand.countries[0] ?? o.country);
  const { token, statement } = await newToken(d1, id, "activate");
  const t = o.tracking;
  const statements = [
    d1.prepare(
      `INSERT INTO users (id, brand_id, email, password_hash, language, status, network, ref, sub1, sub2, sub3, lb, signup_message, signup_profile_id)
       VALUES (?1, ?2, ?3, ?4, ?5, 'not_confirmed', ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)`,
    ).bind(
      id, brand.id, email, await hashPassword(input.password, env.PASSWORD_PEPPER), o.language,
      t.network, t.ref, t.sub1, t.sub2, t.sub3, t.lb, input.signupMessage?.trim() || null, input.signupProfileId || null,
    ),
    d1.prepare(
      "INSERT INTO profiles (user_id, name, status, gender, sexuality, date_of_birth, country) VALUES (?1, ?2, 'disabled', ?3, ?4, ?5, ?6)",
    ).bind(id, input.name.trim(), gender, sexuality, input.dateOfBirth, country),
    statement,
  ];
  if (credits > 0) statements.push(...grantStatements(d1, id, credits, "signup"));
  try {
    await d1.batch(statements);
  } catch (e) {
    // Two sign-ups with one address at once: the unique index decides, the second sees "taken".
    if (String(e).includes("UNIQUE")) return { ok: false, error: "taken" };
    throw e;
  }
  await sendAccountMail(env, brand, { id, email, name: input.name.trim(), language: o.language }, "activate", token, o.origin);
  countEvent(env, "signup", { brandId: brand.id });
  const message = input.signupMessage?.trim();
  const conversationId = message && input.signupProfileId ? await sendSignupMessage(env, brand, id, input.signupProfileId, message) : null;
  return { ok: true, userId: id, conversationId };
}

/** The sign-up message's client id: one per member, so a retried delivery is stored once. */
const SIGNUP_MESSAGE_CLIENT_ID = "signup-message";

/**
 * The sign-up message (SPEC section 3) becomes the new member's first message to the member whose
 * landing they signed up on: free, and one of their free conversations. The sender is not confirmed
 * yet, so it is stored held and delivered by confirmAddress (releaseHeldMessages) once the address
 * is confirmed. Only to an existing member of the same brand. Returns the conversation, or null.
 */
async function sendSignupMessage(env: AccountEnv, brand: BrandWithCompany, userId: string, profileId: string, body: string) {
  const target = await env.DB.prepare("SELECT 1 AS ok FROM users WHERE id = ?1 AND brand_id = ?2 AND deleted_at IS NULL")
    .bind(profileId, brand.id).first<{ ok: number }>();
  if (!target) return null;
  const sent = await startAndSend(env, { id: userId, credits: 0 }, profileId, {
    clientId: SIGNUP_MESSAGE_CLIENT_ID, kind: "text", body: body.slice(0, brand.messageLength), prices: { message: 0, gift: 0 },
  });
  return sent.ok ? sent.id : null;
}

const LINK_PATH: Record<AccountMailKind, string> = {
  activate: "/activate",
  reset: "/reset-password/do",
  mailChange: "/mail-change/do",
  mailUndo: "/mail-change/undo",
  reactivate: "/reactivate",
  lockout: "/reset-password",
};

async function sendAccountMail(
  env: AccountEnv,
  brand: BrandWithCompany,
  user: { id: string; email: string; name: string; language: string },
  kind: AccountMailKind,
  token: string | null,
  origin: string,
  to = user.email,
  vars: Record<string, unknown> = {},
) {
  const t = await getFixedT(user.language as Language, "account");
  const link = `${origin}${LINK_PATH[kind]}${token ? `?token=${encodeURIComponent(token)}` : ""}`;
  await mailerFor(env).send(
    accountMail(t, kind, {
      brandId: brand.id, brandName: brand.mailName || brand.name, to, name: user.name, link,
      vars: { days: REACTIVATION_DAYS, ...vars },
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Activation

/**
 * The one way an address becomes confirmed, for the activation link and a confirmed e-mail change
 * alike: the token is used, then (each only if the statement before changed a row, one batch) the
 * address set, the status confirmed and the profile active; then the messages held until now are
 * delivered. False when the token was not usable or the account is deleted.
 */
async function confirmAddress(env: AccountEnv, userId: string, tokenUse: D1PreparedStatement, email?: string): Promise<boolean> {
  const d1 = env.DB;
  const [, confirmed] = await d1.batch([
    tokenUse,
    d1.prepare("UPDATE users SET status = 'confirmed', email = COALESCE(?2, email) WHERE id = ?1 AND deleted_at IS NULL AND changes() = 1")
      .bind(userId, email ?? null),
    d1.prepare("UPDATE profiles SET status = 'active' WHERE user_id = ?1 AND changes() = 1").bind(userId),
  ]);
  if (confirmed?.meta.changes !== 1) return false;
  await releaseHeldMessages(env, userId);
  return true;
}

/** Activation from its link: confirms the address (see confirmAddress). Returns the member, or null. */
export async function activate(env: AccountEnv, token: string): Promise<string | null> {
  const row = await peekToken(env.DB, token, "activate");
  if (!row) return null;
  if (!(await confirmAddress(env, row.userId, await useTokenStatement(env.DB, token, "activate")))) return null;
  countEvent(env, "activation");
  return row.userId;
}

/** A new activation link for a not yet confirmed member, at most ACTIVATION_MAILS_PER_DAY a day. */
export async function resendActivation(env: AccountEnv, brand: BrandWithCompany, member: Member, origin: string) {
  if (member.status === "confirmed") return "confirmed" as const;
  if (!(await takeDailyQuota(env.DB, `activate:${member.id}`, ACTIVATION_MAILS_PER_DAY))) return "too_many" as const;
  const { token, statement } = await newToken(env.DB, member.id, "activate");
  await statement.run();
  await sendAccountMail(env, brand, member, "activate", token, origin);
  return "sent" as const;
}

// ---------------------------------------------------------------------------------------------
// Password reset and change

export async function requestPasswordReset(env: AccountEnv, brand: BrandWithCompany, email: string, origin: string) {
  const user = await env.DB
    .prepare(
      "SELECT u.id, u.email, u.language, p.name FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.brand_id = ?1 AND u.email = ?2 AND u.deleted_at IS NULL",
    )
    .bind(brand.id, normalizeEmail(email))
    .first<{ id: string; email: string; language: string; name: string }>();
  if (!user) return "not_found" as const;
  if (!(await takeDailyQuota(env.DB, `reset:${user.id}`, RESET_MAILS_PER_DAY))) return "too_many" as const;
  const { token, statement } = await newToken(env.DB, user.id, "reset");
  await statement.run();
  await sendAccountMail(env, brand, user, "reset", token, origin);
  return "sent" as const;
}

/**
 * Sets a new password through a reset link: the token is used, the hash replaced, the lockout
 * lifted and every session of the member ended, all in one batch. Returns the member, or null
 * when the link is expired, used or unknown.
 */
export async function resetPassword(env: AccountEnv, token: string, password: string): Promise<string | null> {
  const d1 = env.DB;
  const hash = await tokenHash(token);
  const now = nowS();
  const mine = `(SELECT user_id FROM tokens WHERE id_hash = ?1 AND kind = 'reset' AND used_at IS NULL AND expires_at > ?2)`;
  const results = await d1.batch<{ user_id: string }>([
    d1.prepare(`UPDATE users SET password_hash = ?3, failed_logins = 0, blocked_until = NULL WHERE id = ${mine}`)
      .bind(hash, now, await hashPassword(password, env.PASSWORD_PEPPER)),
    d1.prepare(`DELETE FROM sessions WHERE user_id = ${mine}`).bind(hash, now),
    d1.prepare(`DELETE FROM tokens WHERE kind = 'reset' AND id_hash != ?1 AND user_id = ${mine}`).bind(hash, now),
    await useTokenStatement(d1, token, "reset"),
  ]);
  const userId = results[3]?.results[0]?.user_id ?? null;
  if (userId) await closeRevokedSockets(env, userId);
  return userId;
}

/** Settings: the old password must be right; the member's other sessions end. */
export async function changePassword(env: AccountEnv, userId: string, oldPassword: string, password: string, keepSessionHash: string | null) {
  const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?1").bind(userId).first<{ password_hash: string }>();
  if (!row || !(await verifyPassword(oldPassword, row.password_hash, env.PASSWORD_PEPPER))) return false;
  await env.DB.batch([
    env.DB.prepare("UPDATE users SET password_hash = ?2 WHERE id = ?1").bind(userId, await hashPassword(password, env.PASSWORD_PEPPER)),
    revokeSessionsStatement(env.DB, userId, keepSessionHash ?? undefined),
  ]);
  await closeRevokedSockets(env, userId);
  return true;
}

// ---------------------------------------------------------------------------------------------
// E-mail change

/**
 * Asks for a new address: the current password must be right (a stolen session alone cannot take
 * the account over), the new address gets the confirmation link, and the current address is told
 * at once with a link that undoes the change for MAIL_UNDO_DAYS days (issue 12, decision 087).
 */
export async function requestMailChange(
  env: AccountEnv, brand: BrandWithCompany, member: Member, newEmail: string, password: string, origin: string,
) {
  const row = await env.DB.prepare("SELECT password_hash FROM users WHERE id = ?1").bind(member.id).first<{ password_hash: string }>();
  if (!row || !(await verifyPassword(password, row.password_hash, env.PASSWORD_PEPPER))) return "wrong_password" as const;
  const email = normalizeEmail(newEmail);
  if ((await emailState(env.DB, brand.id, email)) !== "free") return "taken" as const;
  const change = await newToken(env.DB, member.id, "mail_change", email);
  const undo = await newToken(env.DB, member.id, "mail_undo", member.email);
  await env.DB.batch([change.statement, undo.statement]);
  await sendAccountMail(env, brand, member, "mailChange", change.token, origin, email);
  await sendAccountMail(env, brand, member, "mailUndo", undo.token, origin, member.email, { email, days: MAIL_UNDO_DAYS });
  return "sent" as const;
}

/** Confirms a new address from its link. Clicking proves the address, so it is confirmed too (confirmAddress). */
export async function confirmMailChange(env: AccountEnv, token: string): Promise<"ok" | "invalid" | "taken"> {
  const { tokens, users } = schema;
  const [row] = await getDb(env.DB)
    .select({ userId: tokens.userId, newEmail: tokens.payload, brandId: users.brandId })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(and(
      eq(tokens.idHash, await tokenHash(token)), eq(tokens.kind, "mail_change"), isNull(tokens.usedAt),
      gt(tokens.expiresAt, nowS()), isNull(users.deletedAt),
    ));
  if (!row?.newEmail) return "invalid";
  if ((await emailState(env.DB, row.brandId, row.newEmail)) !== "free") return "taken";
  try {
    return (await confirmAddress(env, row.userId, await useTokenStatement(env.DB, token, "mail_change"), row.newEmail)) ? "ok" : "invalid";
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
  const d1 = env.DB;
  const hash = await tokenHash(token);
  const row = await d1
    .prepare(
      `SELECT t.user_id, t.payload, u.email, u.brand_id FROM tokens t JOIN users u ON u.id = t.user_id
       WHERE t.id_hash = ?1 AND t.kind = 'mail_undo' AND t.used_at IS NULL AND t.expires_at > ?2 AND u.deleted_at IS NULL`,
    )
    .bind(hash, nowS())
    .first<{ user_id: string; payload: string; email: string; brand_id: number }>();
  if (!row) return "invalid";
  // Someone may have signed up with the old address after it was released.
  if (row.email !== row.payload && (await emailState(d1, row.brand_id, row.payload)) !== "free") return "taken";
  try {
    const [, , , used] = await d1.batch([
      d1.prepare("UPDATE users SET email = ?2, status = 'confirmed' WHERE id = ?1").bind(row.user_id, row.payload),
      d1.prepare("DELETE FROM tokens WHERE user_id = ?1 AND kind IN ('mail_change', 'mail_undo') AND id_hash != ?2").bind(row.user_id, hash),
      revokeSessionsStatement(d1, row.user_id),
      await useTokenStatement(d1, token, "mail_undo"),
    ]);
    if (!used?.meta.changes) return "invalid";
  } catch (e) {
    if (String(e).includes("UNIQUE")) return "taken";
    throw e;
  }
  await closeRevokedSockets(env, row.user_id);
  // Confirmed now: anything held until the address was confirmed goes out (as in confirmAddress).
  await releaseHeldMessages(env, row.user_id);
  return "ok";
}

// ---------------------------------------------------------------------------------------------
// Simple settings

export async function setInvisible(d1: D1Database, userId: string, invisible: boolean) {
  await d1.prepare("UPDATE users SET invisible = ?2 WHERE id = ?1").bind(userId, invisible ? 1 : 0).run();
}

export async function setLanguage(d1: D1Database, userId: string, lng: Language) {
  await d1.prepare("UPDATE users SET language = ?2 WHERE id = ?1").bind(userId, lng).run();
}

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type DisabledReason = "user" | "spam_complaint" | "bounce" | "list_unsubscribe";

export async function notificationSettings(d1: D1Database, userId: string) {
  const { results } = await d1
    .prepare("SELECT type, reason FROM notifications_disabled WHERE user_id = ?1")
    .bind(userId)
    .all<{ type: string; reason: DisabledReason }>();
  const disabled = new Map(results.map((r) => [r.type, r.reason]));
  return NOTIFICATION_TYPES.map((type) => ({ type, enabled: !disabled.has(type), reason: disabled.get(type) ?? null }));
}

/** Saves which types the member receives. Re-enabling a type also lifts a bounce/complaint block. */
export async function saveNotificationSettings(d1: D1Database, userId: string, enabled: string[]) {
  const off = NOTIFICATION_TYPES.filter((type) => !enabled.includes(type));
  await d1.batch([
    d1.prepare(`DELETE FROM notifications_disabled WHERE user_id = ?1 AND type NOT IN (${off.map((_, i) => `?${i + 2}`).join(",") || "''"})`)
      .bind(userId, ...off),
    ...off.map((type) =>
      d1.prepare("INSERT INTO notifications_disabled (user_id, type, reason) VALUES (?1, ?2, 'user') ON CONFLICT DO NOTHING").bind(userId, type),
    ),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Deletion, reactivation, purge

export type DeleteReason = (typeof DELETE_REASONS)[number];

/**
 * Deletes an account: hidden at once (deleted_at), every session ended, and a reactivation link
 * valid for REACTIVATION_DAYS mailed. The data stays until the purge, so reactivation restores all.
 */
export async function deleteAccount(
  env: AccountEnv,
  brand: BrandWithCompany,
  member: Member,
  reason: DeleteReason,
  remarks: string,
  origin: string,
) {
  const d1 = env.DB;
  const { token, statement } = await newToken(d1, member.id, "reactivate");
  await d1.batch([
    d1.prepare("UPDATE users SET deleted_at = ?2, delete_reason = ?3, delete_remarks = ?4 WHERE id = ?1")
      .bind(member.id, nowS(), reason, remarks.slice(0, 2000)),
    revokeSessionsStatement(d1, member.id),
    d1.prepare("DELETE FROM tokens WHERE user_id = ?1 AND kind = 'reactivate'").bind(member.id),
    statement,
  ]);
  await closeRevokedSockets(env, member.id);
  await sendAccountMail(env, brand, member, "reactivate", token, origin);
}

/** From the sign-up form's pending-deletion notice: a fresh reactivation link, within the quota. */
export async function requestReactivation(env: AccountEnv, brand: BrandWithCompany, email: string, origin: string) {
  const user = await env.DB
    .prepare(
      "SELECT u.id, u.email, u.language, u.deleted_at, p.name FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.brand_id = ?1 AND u.email = ?2 AND u.deleted_at IS NOT NULL",
    )
    .bind(brand.id, normalizeEmail(email))
    .first<{ id: string; email: string; language: string; name: string; deleted_at: number }>();
  if (!user || user.deleted_at < nowS() - REACTIVATION_DAYS * DAY) return "not_found" as const;
  if (!(await takeDailyQuota(env.DB, `reactivate:${user.id}`, RESET_MAILS_PER_DAY))) return "too_many" as const;
  const { token, statement } = await newToken(env.DB, user.id, "reactivate");
  await statement.run();
  await sendAccountMail(env, brand, user, "reactivate", token, origin);
  return "sent" as const;
}

/** Undoes a deletion from its link, if the deletion is less than REACTIVATION_DAYS old. */
export async function reactivate(d1: D1Database, token: string, now = nowS()): Promise<string | null> {
  const hash = await tokenHash(token);
  const mine = `(SELECT user_id FROM tokens WHERE id_hash = ?1 AND kind = 'reactivate' AND used_at IS NULL AND expires_at > ?2)`;
  const [restored] = await d1.batch([
    d1.prepare(`UPDATE users SET deleted_at = NULL, delete_reason = NULL, delete_remarks = NULL WHERE id = ${mine} AND deleted_at > ?3 RETURNING id`)
      .bind(hash, now, now - REACTIVATION_DAYS * DAY),
    d1.prepare(`UPDATE tokens SET used_at = ?2 WHERE id_hash = ?1 AND kind = 'reactivate' AND used_at IS NULL AND expires_at > ?2`).bind(hash, now),
  ]);
  return (restored?.results[0] as { id: string } | undefined)?.id ?? null;
}

// ---------------------------------------------------------------------------------------------
// Retention offer: a personal discount code worth the company's delete_discount

export async function retentionDiscountCode(d1: D1Database, brand: BrandWithCompany, userId: string) {
  const percentage = brand.company.deleteDiscount;
  if (!percentage) return null;
  const existing = await d1
    .prepare("SELECT code, value_percentage, expires FROM discount_codes WHERE user_id = ?1 AND code LIKE 'STAY-%' AND status = 'active'")
    .bind(userId)
    .first<{ code: string; value_percentage: string; expires: number }>();
  if (existing && existing.expires > nowS()) return { code: existing.code, percentage: Number(existing.value_percentage) };
  const code = `STAY-${randomId(6).toUpperCase().replace(/[^A-Z0-9]/g, "X")}`;
  await d1
    .prepare("INSERT INTO discount_codes (code, value_percentage, user_id, expires, once_per_user) VALUES (?1, ?2, ?3, ?4, 1)")
    .bind(code, String(percentage), userId, nowS() + 30 * DAY)
    .run();
  return { code, percentage };
}

// ---------------------------------------------------------------------------------------------
// The current member as /api/user.php answers it, and the GDPR export

export function userJson(m: Member) {
  return {
    id: m.id,
    email: m.email,
    paid_user: m.paidUser,
    credits: m.credits,
    language: m.language,
    status: m.status,
    invisible: m.invisible,
    notifications_disabled: m.notificationsDisabled,
    created_at: m.createdAt,
    profile: { id: m.id, name: m.name, status: m.profileStatus, main_image: m.mainPhotoId ? { id: m.mainPhotoId } : null },
  };
}

/** Everything stored about a member (GDPR right of access), minus the password hash. */
export async function exportMemberData(d1: D1Database, userId: string) {
  const q = (sql: string) => d1.prepare(sql).bind(userId);
  const [user, profile, interests, photos, likesGiven, likesReceived, blocks, conversations, messages, ledger, payments, notifications, discounts] =
    await d1.batch([
      q("SELECT * FROM users WHERE id = ?1"),
      q("SELECT * FROM profiles WHERE user_id = ?1"),
      q("SELECT interest_id FROM profile_interests WHERE user_id = ?1"),
      q("SELECT id, is_private, width, height, created_at FROM photos WHERE user_id = ?1"),
      q("SELECT liked_id, source, created_at FROM likes WHERE liker_id = ?1"),
      q("SELECT liker_id, created_at FROM likes WHERE liked_id = ?1"),
      q("SELECT blocked_id, created_at FROM blocks WHERE blocker_id = ?1"),
      q("SELECT c.id, c.member_a, c.member_b, c.created_at FROM conversations c WHERE c.member_a = ?1 OR c.member_b = ?1"),
      q("SELECT conversation_id, kind, body, gift_id, credits_charged, created_at FROM messages WHERE sender_id = ?1 ORDER BY id"),
      q("SELECT delta, reason, ref_id, created_at FROM credit_ledger WHERE user_id = ?1 ORDER BY id"),
      q("SELECT id, package_id, credits, amount_cents, currency, method, status, created_at FROM payments WHERE user_id = ?1"),
      q("SELECT type, reason, created_at FROM notifications_disabled WHERE user_id = ?1"),
      q("SELECT code, value_percentage, expires FROM discount_codes WHERE user_id = ?1"),
    ]);
  const { password_hash: _secret, ...userRow } = (user!.results[0] ?? {}) as Record<string, unknown>;
  return {
    exported_at: new Date().toISOString(),
    user: userRow,
    profile: profile!.results[0] ?? null,
    interests: interests!.results.map((r) => (r as { interest_id: string }).interest_id),
    photos: photos!.results,
    likes_given: likesGiven!.results,
    likes_received: likesReceived!.results,
    blocks: blocks!.results,
    conversations: conversations!.results,
    messages_sent: messages!.results,
    credit_ledger: ledger!.results,
    payments: payments!.results,
    notifications_disabled: notifications!.results,
    discount_codes: discounts!.results,
  };
}

export type { TokenKind };
