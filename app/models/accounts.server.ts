/**
 * Accounts: sign-up, activation, login with lockout, password reset, settings, deletion with
 * reactivation (the purge: account-purge.server.ts), and the GDPR export. Every rule of docs/product.md §4-§8 about accounts
 * lives here; routes only parse input and call these functions.
 */
import { signupFlagStatements } from "./disposable.server";
import { countEvent } from "~/lib/metrics.server";
import { and, eq, getTableColumns, gt, inArray, isNotNull, isNull, like, ne, notInArray, or, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { BatchItem } from "drizzle-orm/batch";
import { getDb, schema, toStatement, type Db } from "../../db/client";
import { nowS } from "~/lib/dates";
import { REACTIVATION_DAYS, NOTIFICATION_TYPES, MARKETING_TYPES, type Language } from "~/lib/constants";
import type { Env } from "~/lib/env";
import { getFixedT } from "~/lib/i18n.server";
import { hashPassword, randomId, verifyPassword } from "~/lib/password";
import type { DELETE_REASONS } from "./account-forms";
import { copyOf, nicheOf, type BrandWithCompany } from "./brand.server";
import { accountMail, mailerFor, type AccountMailKind } from "./mail.server";
import { closeRevokedSockets, revokeSessionsStatement, type Member } from "./session.server";
import { messagesSentBy, releaseHeldMessages, startAndSend } from "./chat.server";
import { walletBalance, walletLedger } from "../wallet/wallet.server";
import { outboxStatement, settleWallet } from "../wallet/outbox.server";
import { MAIL_UNDO_DAYS, newToken, peekToken, tokenHash, tokenUseStatement, type TokenKind } from "./tokens.server";

/** Wrong passwords in a row before the account is blocked, and for how long. */
export const LOGIN_MAX_ATTEMPTS = 5;
export const LOGIN_BLOCK_MINUTES = 15;
/** Password reset and activation mails a member can ask for per day. */
export const RESET_MAILS_PER_DAY = 3;
export const ACTIVATION_MAILS_PER_DAY = 3;

const DAY = 86_400;
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

/**
 * Abuse throttling by client address (the RATE_LIMITER binding, 30 a minute; simulated locally).
 * Login and reset also key on the e-mail address, so many members behind one address (an office,
 * a test run) do not throttle each other; guessing one account's password is the lockout's job.
 */
export async function withinRateLimit(
  env: Pick<Env, "RATE_LIMITER" | "DB">,
  request: Request,
  action: string,
  email?: string,
): Promise<boolean> {
  const ip = clientIp(request);
  if (action === "login" && !(await withinAddressesPerClient(env.DB, ip))) return false;
  if (!env.RATE_LIMITER) return true;
  const { success } = await env.RATE_LIMITER.limit({
    key: `${action}:${ip}${email ? `:${normalizeEmail(email)}` : ""}`,
  });
  return success;
}

/** The client's address as Cloudflare saw it ("local" in development). */
export const clientIp = (request: Request) => request.headers.get("CF-Connecting-IP") ?? "local";

/**
 * Distinct addresses one client may fail to log in to per hour: password spraying stops there
 * (decision 088). Only failures count, so many members behind one address (an office, a mobile
 * carrier's NAT, a test run) who log in with their own passwords never throttle each other.
 */
export const LOGIN_ADDRESSES_PER_CLIENT = 20;
const HOUR = 3600;
const sprayKey = (ip: string, hour: number) => `login-addresses:${ip}:${hour}`;

/** Whether this client is still under LOGIN_ADDRESSES_PER_CLIENT failed addresses this hour. */
async function withinAddressesPerClient(d1: D1Database, ip: string, now = nowS()): Promise<boolean> {
  const { counters } = schema;
  const [row] = await getDb(d1)
    .select({ count: counters.count })
    .from(counters)
    .where(eq(counters.key, sprayKey(ip, Math.floor(now / HOUR))));
  return (row?.count ?? 0) < LOGIN_ADDRESSES_PER_CLIENT;
}

/**
 * A failed login counts its address for the client once an hour (an exact D1 counter: retrying one
 * address does not count again). Two statements that must run next to each other in a batch.
 */
export function failedAddressStatements(db: Db, ip: string, email: string, now: number) {
  const hour = Math.floor(now / HOUR);
  const expires = (hour + 1) * HOUR;
  const { counters } = schema;
  return [
    db
      .insert(counters)
      .values({ key: `login-address:${ip}:${hour}:${email}`, count: 1, expiresAt: expires })
      .onConflictDoNothing(),
    // Guarded: counts only when the insert above added the address (changes() = 1).
    db
      .insert(counters)
      .select(sql`SELECT ${sprayKey(ip, hour)}, 1, ${expires} WHERE changes() = 1`)
      .onConflictDoUpdate({ target: counters.key, set: { count: sql`${counters.count} + 1` } }),
  ] as const;
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
  env: AccountEnv,
  brand: BrandWithCompany,
  email: string,
  password: string,
  client: LoginClient,
  now = nowS(),
): Promise<LoginResult> {
  const d1 = env.DB;
  const db = getDb(d1);
  const { users, profiles, counters } = schema;
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      passwordHash: users.passwordHash,
      language: users.language,
      blockedUntil: users.blockedUntil,
      name: profiles.name,
      // This client's running lock: the device's key for the member's own device, else the address's.
      clientBlockedUntil: sql<number | null>`(SELECT ${counters.expiresAt} FROM ${counters}
        WHERE ${counters.key} = (CASE WHEN ${users.id} = ${client.device?.userId ?? ""} THEN ${failKeyPrefix(client, true)} ELSE ${failKeyPrefix(client, false)} END) || ${users.id}
          AND ${counters.count} >= ${LOGIN_MAX_ATTEMPTS} AND ${counters.expiresAt} > ${now})`,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.brandId, brand.id), eq(users.email, normalizeEmail(email)), isNull(users.deletedAt)));
  if (!user) {
    // As slow as a wrong password: a failure does not tell whether the address has an account.
    await verifyPassword(password, await dummyHash(env.PASSWORD_PEPPER), env.PASSWORD_PEPPER);
    await db.batch(failedAddressStatements(db, client.ip, normalizeEmail(email), now));
    return { ok: false, reason: "failed" };
  }
  const known = client.device?.userId === user.id;
  const failKey = failKeyPrefix(client, known) + user.id;
  if (user.clientBlockedUntil)
    return { ok: false, reason: "blocked", minutes: minutesLeft(user.clientBlockedUntil, now) };
  if (!known && user.blockedUntil && user.blockedUntil > now)
    return { ok: false, reason: "blocked", minutes: minutesLeft(user.blockedUntil, now) };
  if (await verifyPassword(password, user.passwordHash, env.PASSWORD_PEPPER)) {
    // A running lock for unknown devices stays: the member's success does not give the attacker new tries.
    await db.batch([
      db
        .update(users)
        .set({
          failedLogins: 0,
          blockedUntil: sql`CASE WHEN ${users.blockedUntil} > ${now} THEN ${users.blockedUntil} END`,
          lastSeenAt: now,
        })
        .where(eq(users.id, user.id)),
      db.delete(counters).where(eq(counters.key, failKey)),
    ]);
    return { ok: true, userId: user.id, language: user.language };
  }
  const until = now + LOGIN_BLOCK_MINUTES * 60;
  const [clientRow, accountRow] = await db.batch([
    clientFailureStatement(db, failKey, now),
    accountFailureStatement(db, users, user.id, until),
    ...failedAddressStatements(db, client.ip, user.email, now),
  ]);
  const clientLocked = (clientRow[0]?.count ?? 0) >= LOGIN_MAX_ATTEMPTS;
  const accountLocked = accountRow[0]?.blockedUntil === until;
  if (clientLocked || accountLocked) {
    if (await takeDailyQuota(d1, `lockout-mail:${user.id}`, 1, now)) {
      await sendAccountMail(env, brand, user, "lockout", null, client.origin, user.email, {
        minutes: LOGIN_BLOCK_MINUTES,
      });
    }
  }
  if (clientLocked || (accountLocked && !known)) return { ok: false, reason: "blocked", minutes: LOGIN_BLOCK_MINUTES };
  return { ok: false, reason: "failed" };
}

/**
 * Counts one client's failed login under `key` within a window of LOGIN_BLOCK_MINUTES; the
 * LOGIN_MAX_ATTEMPTS-th starts its lock (the key's expiry). RETURNING count. Members and operators.
 */
export function clientFailureStatement(db: Db, key: string, now: number) {
  const { counters } = schema;
  const until = now + LOGIN_BLOCK_MINUTES * 60;
  return db
    .insert(counters)
    .values({ key, count: 1, expiresAt: until })
    .onConflictDoUpdate({
      target: counters.key,
      set: {
        count: sql`CASE WHEN ${counters.expiresAt} <= ${now} THEN 1 ELSE ${counters.count} + 1 END`,
        expiresAt: sql`CASE WHEN ${counters.expiresAt} <= ${now} OR ${counters.count} + 1 >= ${LOGIN_MAX_ATTEMPTS} THEN ${until} ELSE ${counters.expiresAt} END`,
      },
    })
    .returning({ count: counters.count });
}

/**
 * Counts a failed login on the account (members' users or operators); the LOGIN_ACCOUNT_MAX_ATTEMPTS-th
 * locks it until `until` and starts the count afresh. Returns blockedUntil. The CASE reads the row's
 * own count in the same statement.
 */
export function accountFailureStatement(
  db: Db,
  table: typeof schema.users | typeof schema.operators,
  id: string,
  until: number,
) {
  const limitReached = sql`${table.failedLogins} + 1 >= ${LOGIN_ACCOUNT_MAX_ATTEMPTS}`;
  return db
    .update(table as typeof schema.users)
    .set({
      blockedUntil: sql`CASE WHEN ${limitReached} THEN ${until} ELSE ${table.blockedUntil} END`,
      failedLogins: sql`CASE WHEN ${limitReached} THEN 0 ELSE ${table.failedLogins} + 1 END`,
    })
    .where(eq(table.id, id))
    .returning({ blockedUntil: table.blockedUntil });
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
export const dummyHash = (pepper: string) => (dummy ??= hashPassword(randomId(16), pepper));

export const minutesLeft = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 60));

// ---------------------------------------------------------------------------------------------
// Sign-up

import { NICHE_WHO, sexualityOf, type Gender, type Seeking, type Tracking } from "./signup-rules";

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
  /** Ticked the opt-in to marketing mails (MARKETING_TYPES); without it they stay off (decisions 180, 213). */
  marketing?: boolean;
}

/** How long a sign-up's confirmation link works (decision 224). */
export const SIGNUP_CONFIRM_HOURS = 24;
/** Confirmation mails one address can be sent per day and brand (a stranger cannot flood an inbox). */
export const SIGNUP_MAILS_PER_DAY = 3;

/** What a sign-up form collected, kept with its confirmation link until the link is followed (decision 224). */
interface PendingSignup {
  email: string;
  name: string;
  dateOfBirth: string;
  passwordHash: string;
  signupMessage: string | null;
  signupProfileId: string | null;
  gender: Gender;
  seeking: Seeking;
  marketing: boolean;
  tracking: Tracking;
  language: Language;
  country: string;
}

/**
 * A sign-up (docs/product.md §6, decision 224): the answer is the same "check your e-mail" whether the
 * address is new or known, so it returns nothing a route could tell apart. A new address gets a link
 * that creates the account (confirmSignup); what the form collected waits with the link's hash in
 * signup_requests, the password only as its hash. A known address's owner gets a way in instead
 * (mailOwnerOfKnownAddress), never a second account. Both paths hash the password, take a daily mail
 * quota and send at most one mail, so neither is noticeably quicker.
 */
export async function requestSignup(
  env: AccountEnv,
  brand: BrandWithCompany,
  input: SignupInput,
  o: { tracking: Tracking; language: Language; country: string; origin: string },
  now = nowS(),
): Promise<void> {
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password, env.PASSWORD_PEPPER);
  const state = await emailState(env.DB, brand.id, email);
  if (state !== "free") {
    await mailOwnerOfKnownAddress(env, brand, email, state, o.origin);
    return;
  }
  if (!(await takeDailyQuota(env.DB, `signup-confirm:${brand.id}:${email}`, SIGNUP_MAILS_PER_DAY, now))) return;
  const who = NICHE_WHO[nicheOf(brand)];
  const pending: PendingSignup = {
    email,
    name: input.name.trim(),
    dateOfBirth: input.dateOfBirth,
    passwordHash,
    signupMessage: input.signupMessage?.trim() || null,
    signupProfileId: input.signupProfileId || null,
    gender: who.fixed ? who.gender : (input.gender ?? who.gender),
    seeking: who.fixed ? who.seeking : (input.seeking ?? who.seeking),
    marketing: !!input.marketing,
    tracking: o.tracking,
    language: o.language,
    country: brand.countries.includes(o.country) ? o.country : (brand.countries[0] ?? o.country),
  };
  const token = randomId(24);
  await getDb(env.DB)
    .insert(schema.signupRequests)
    .values({
      idHash: await tokenHash(token),
      brandId: brand.id,
      email,
      payload: JSON.stringify(pending),
      expiresAt: now + SIGNUP_CONFIRM_HOURS * HOUR,
      createdAt: now,
    });
  await sendAccountMail(
    env,
    brand,
    { id: "", email, name: pending.name, language: o.language },
    "signupConfirm",
    token,
    o.origin,
    email,
    {
      hours: SIGNUP_CONFIRM_HOURS,
    },
  );
}

/** Whether a sign-up link of this brand can still be followed (to show its button), without using it. */
export async function signupLinkUsable(d1: D1Database, brand: Pick<BrandWithCompany, "id">, token: string) {
  if (!token) return false;
  const R = schema.signupRequests;
  const [row] = await getDb(d1)
    .select({ email: R.email })
    .from(R)
    .where(and(eq(R.idHash, await tokenHash(token)), usableSignup(brand.id, nowS())));
  return !!row;
}

const usableSignup = (brandId: number, now: number) => {
  const R = schema.signupRequests;
  return and(eq(R.brandId, brandId), isNull(R.usedAt), gt(R.expiresAt, now));
};

export type SignupConfirmation =
  | { ok: true; userId: string; conversationId: string | null }
  | { ok: false; reason: "invalid" | "taken" };

/**
 * Follows a sign-up link (decision 224): the link is used (one conditional UPDATE: two clicks never both
 * succeed; only this brand's, unused and unexpired), then the account is created confirmed, since
 * following the link proved the address. "taken": the address got an account meanwhile (another of its
 * links was followed first); the link is spent either way. If creating the account fails otherwise, the
 * link is given back, so the member can try again.
 */
export async function confirmSignup(
  env: AccountEnv,
  brand: BrandWithCompany,
  token: string,
  now = nowS(),
): Promise<SignupConfirmation> {
  if (!token || token.length > 100) return { ok: false, reason: "invalid" };
  const db = getDb(env.DB);
  const R = schema.signupRequests;
  const hash = await tokenHash(token);
  const [row] = await db
    .update(R)
    .set({ usedAt: now })
    .where(and(eq(R.idHash, hash), usableSignup(brand.id, now)))
    .returning({ payload: R.payload });
  if (!row) return { ok: false, reason: "invalid" };
  const pending = JSON.parse(row.payload) as PendingSignup;
  try {
    const created = await createAccount(env, brand, pending, hash, now);
    if (!created) return { ok: false, reason: "taken" };
    return { ok: true, ...created };
  } catch (e) {
    await db.update(R).set({ usedAt: null }).where(eq(R.idHash, hash));
    throw e;
  }
}

/**
 * Creates a member from a confirmed sign-up: user (confirmed), active profile, the brand's sign-up credits
 * (to their wallet, by the outbox), the marketing opt-outs, in one D1 batch that also drops the
 * address's other sign-up links. Null when the address already has an account (the unique index
 * decides, also between two links followed at once). Location is filled in later (/complete-signup).
 */
async function createAccount(
  env: AccountEnv,
  brand: BrandWithCompany,
  p: PendingSignup,
  usedHash: string,
  now: number,
): Promise<{ userId: string; conversationId: string | null } | null> {
  const d1 = env.DB;
  const id = randomId();
  const credits = Math.max(0, brand.signupCredits);
  const db = getDb(d1);
  const t = p.tracking;
  const R = schema.signupRequests;
  // One D1 batch: the account, its profile, the address's other links dropped, its flags and (below) its sign-up credits' outbox row.
  const statements = [
    db.insert(schema.users).values({
      id,
      brandId: brand.id,
      email: p.email,
      passwordHash: p.passwordHash,
      language: p.language,
      status: "confirmed",
      network: t.network,
      ref: t.ref,
      sub1: t.sub1,
      sub2: t.sub2,
      sub3: t.sub3,
      lb: t.lb,
      signupMessage: p.signupMessage,
      signupProfileId: p.signupProfileId,
      // Born with a wallet (its credits come through the outbox): nothing of it in D1 to move (decision 194).
      walletAt: now,
      createdAt: now,
      lastSeenAt: now,
    }),
    db.insert(schema.profiles).values({
      userId: id,
      name: p.name,
      status: "active",
      gender: p.gender,
      sexuality: sexualityOf(p.gender, p.seeking),
      dateOfBirth: p.dateOfBirth,
      country: p.country,
    }),
    db.delete(R).where(and(eq(R.brandId, brand.id), eq(R.email, p.email), ne(R.idHash, usedHash))),
    // A disposable address opens a case for a moderator (decision 176); it never refuses the sign-up.
    ...(await signupFlagStatements(db, { id, brandId: brand.id, email: p.email })),
    // Marketing only by opt-in: without the ticked box every MARKETING_TYPES mail starts switched off.
    ...(p.marketing
      ? []
      : MARKETING_TYPES.map((type) =>
          db.insert(schema.notificationsDisabled).values({ userId: id, type, reason: "user" }),
        )),
  ].map((q) => toStatement(d1, q));
  // The sign-up credits: an outbox row in the account's batch, applied to the new wallet just after (decision 189).
  if (credits > 0)
    statements.push(
      outboxStatement(
        d1,
        { userId: id, kind: "apply", key: `signup:${id}`, delta: credits, reason: "signup", refId: null },
        { afterChange: false },
      ),
    );
  try {
    await d1.batch(statements);
  } catch (e) {
    // Two links of one address followed at once, or an account made meanwhile: the unique index decides.
    if (String(e).includes("UNIQUE")) return null;
    throw e;
  }
  if (credits > 0) await settleWallet(env, id);
  countEvent(env, "signup", { brandId: brand.id });
  const conversationId =
    p.signupMessage && p.signupProfileId
      ? await sendSignupMessage(env, brand, id, p.signupProfileId, p.signupMessage)
      : null;
  return { userId: id, conversationId };
}

/**
 * A sign-up with an address that already has an account (decision 202): the page answers as for a new
 * one, and the owner gets the mail instead: a way to log in or choose a new password, or, for an account
 * pending deletion, the reactivation link. At most RESET_MAILS_PER_DAY a day per account, silently, so a
 * stranger cannot flood the owner's inbox nor learn from the answer that the address is known.
 */
async function mailOwnerOfKnownAddress(
  env: AccountEnv,
  brand: BrandWithCompany,
  email: string,
  state: Exclude<EmailState, "free">,
  origin: string,
) {
  if (state === "pending_deletion") {
    await requestReactivation(env, brand, email, origin);
    return;
  }
  const { users, profiles } = schema;
  const [user] = await getDb(env.DB)
    .select({ id: users.id, email: users.email, language: users.language, name: profiles.name })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.brandId, brand.id), eq(users.email, email), isNull(users.deletedAt)));
  if (!user || !(await takeDailyQuota(env.DB, `signup-known:${user.id}`, RESET_MAILS_PER_DAY))) return;
  await sendAccountMail(env, brand, user, "signupKnown", null, origin, user.email, {
    resetLink: `${origin}/reset-password`,
  });
}

/** The sign-up message's client id: one per member, so a retried delivery is stored once. */
const SIGNUP_MESSAGE_CLIENT_ID = "signup-message";

/**
 * The sign-up message (docs/product.md §3) becomes the new member's first message to the member whose
 * landing they signed up on: free, and one of their free conversations, sent as the account is created
 * from the confirmed link (decision 224). Only to an existing member of the same brand. Returns the
 * conversation, or null.
 */
async function sendSignupMessage(
  env: AccountEnv,
  brand: BrandWithCompany,
  userId: string,
  profileId: string,
  body: string,
) {
  const { users } = schema;
  const [target] = await getDb(env.DB)
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, profileId), eq(users.brandId, brand.id), isNull(users.deletedAt)));
  if (!target) return null;
  const sent = await startAndSend(env, { id: userId, credits: 0 }, profileId, {
    clientId: SIGNUP_MESSAGE_CLIENT_ID,
    kind: "text",
    body: body.slice(0, brand.messageLength),
    prices: { message: 0, gift: 0 },
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
  signupKnown: "/login",
  signupConfirm: "/signup/confirm",
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
// Activation

/**
 * The one way an address becomes confirmed, for the activation link and a confirmed e-mail change
 * alike: the token is used, then (each only if the statement before changed a row, one batch) the
 * address set, the status confirmed and the profile active; then the messages held until now are
 * delivered. False when the token was not usable or the account is deleted.
 */
async function confirmAddress(
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

/** Activation from its link: confirms the address (see confirmAddress). Returns the member, or null. */
export async function activate(env: AccountEnv, token: string): Promise<string | null> {
  const row = await peekToken(env.DB, token, "activate");
  if (!row) return null;
  if (!(await confirmAddress(env, row.userId, token, "activate"))) return null;
  countEvent(env, "activation");
  return row.userId;
}

/** Who an account mail goes to and what the account rules read of them (a member or the console's view of one). */
export type AccountHolder = Pick<Member, "id" | "email" | "name" | "language" | "status">;

/**
 * A new activation link for a not yet confirmed member, at most ACTIVATION_MAILS_PER_DAY a day.
 * `extra` joins the token's batch (the console's audit row, decision 177).
 */
export async function resendActivation(
  env: AccountEnv,
  brand: BrandWithCompany,
  member: AccountHolder,
  origin: string,
  extra: BatchItem<"sqlite">[] = [],
) {
  if (member.status === "confirmed") return "confirmed" as const;
  if (!(await takeDailyQuota(env.DB, `activate:${member.id}`, ACTIVATION_MAILS_PER_DAY))) return "too_many" as const;
  const db = getDb(env.DB);
  const { token, statement } = await newToken(db, member.id, "activate");
  await db.batch([statement, ...extra]);
  await sendAccountMail(env, brand, member, "activate", token, origin);
  return "sent" as const;
}

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

async function passwordHashOf(db: Db, userId: string) {
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
  member: AccountHolder,
  reason: DeleteReason,
  remarks: string,
  origin: string,
  extra: BatchItem<"sqlite">[] = [],
) {
  const db = getDb(env.DB);
  const { users, tokens } = schema;
  const { token, statement } = await newToken(db, member.id, "reactivate");
  await db.batch([
    db
      .update(users)
      .set({ deletedAt: nowS(), deleteReason: reason, deleteRemarks: remarks.slice(0, 2000) })
      .where(eq(users.id, member.id)),
    revokeSessionsStatement(db, member.id),
    db.delete(tokens).where(and(eq(tokens.userId, member.id), eq(tokens.kind, "reactivate"))),
    statement,
    ...extra,
  ]);
  await closeRevokedSockets(env, member.id);
  await sendAccountMail(env, brand, member, "reactivate", token, origin);
}

/** From the sign-up form's pending-deletion notice: a fresh reactivation link, within the quota. */
export async function requestReactivation(env: AccountEnv, brand: BrandWithCompany, email: string, origin: string) {
  const { users, profiles } = schema;
  const db = getDb(env.DB);
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      language: users.language,
      deletedAt: users.deletedAt,
      name: profiles.name,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.brandId, brand.id), eq(users.email, normalizeEmail(email)), isNotNull(users.deletedAt)));
  if (!user || (user.deletedAt ?? 0) < nowS() - REACTIVATION_DAYS * DAY) return "not_found" as const;
  if (!(await takeDailyQuota(env.DB, `reactivate:${user.id}`, RESET_MAILS_PER_DAY))) return "too_many" as const;
  const { token, statement } = await newToken(db, user.id, "reactivate");
  await statement;
  await sendAccountMail(env, brand, user, "reactivate", token, origin);
  return "sent" as const;
}

/** Undoes a deletion from its link, if the deletion is less than REACTIVATION_DAYS old. */
export async function reactivate(d1: D1Database, token: string, now = nowS()): Promise<string | null> {
  const db = getDb(d1);
  const { users, tokens } = schema;
  const hash = await tokenHash(token);
  const usable = and(
    eq(tokens.idHash, hash),
    eq(tokens.kind, "reactivate"),
    isNull(tokens.usedAt),
    gt(tokens.expiresAt, now),
  );
  const [restored] = await db.batch([
    db
      .update(users)
      .set({ deletedAt: null, deleteReason: null, deleteRemarks: null })
      .where(
        and(
          inArray(users.id, db.select({ userId: tokens.userId }).from(tokens).where(usable)),
          gt(users.deletedAt, now - REACTIVATION_DAYS * DAY),
        ),
      )
      .returning({ id: users.id }),
    db.update(tokens).set({ usedAt: now }).where(usable),
  ]);
  return restored[0]?.id ?? null;
}

// ---------------------------------------------------------------------------------------------
// Retention offer: a personal discount code worth the company's delete_discount

export async function retentionDiscountCode(d1: D1Database, brand: BrandWithCompany, userId: string) {
  const percentage = brand.company.deleteDiscount;
  if (!percentage) return null;
  const db = getDb(d1);
  const { discountCodes: dc } = schema;
  const [existing] = await db
    .select({ code: dc.code, valuePercentage: dc.valuePercentage, expires: dc.expires })
    .from(dc)
    .where(and(eq(dc.userId, userId), like(dc.code, "STAY-%"), eq(dc.status, "active")))
    .limit(1);
  if (existing?.expires && existing.expires > nowS())
    return { code: existing.code, percentage: Number(existing.valuePercentage) };
  const code = `STAY-${randomId(6)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "X")}`;
  await db
    .insert(dc)
    .values({ code, valuePercentage: String(percentage), userId, expires: nowS() + 30 * DAY, oncePerUser: true });
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
    profile: {
      id: m.id,
      name: m.name,
      status: m.profileStatus,
      main_image: m.mainPhotoId ? { id: m.mainPhotoId } : null,
    },
  };
}

/** Columns under their stored names: the export shows what is stored, as it is named in the database. */
function stored(columns: Record<string, AnySQLiteColumn>): Record<string, AnySQLiteColumn> {
  return Object.fromEntries(Object.values(columns).map((c) => [c.name, c]));
}

/** Everything stored about a member (GDPR right of access), minus the password hash. */
export async function exportMemberData(env: Pick<Env, "DB" | "CHAT_ROOM" | "MEMBER_HUB">, userId: string) {
  const db = getDb(env.DB);
  const s = schema;
  const { passwordHash: _secret, ...userColumns } = getTableColumns(s.users);
  const [
    user,
    profile,
    interests,
    photos,
    likesGiven,
    likesReceived,
    blocks,
    conversations,
    payments,
    notifications,
    discounts,
    ageProofs,
    ageRequests,
  ] = await db.batch([
    db.select(stored(userColumns)).from(s.users).where(eq(s.users.id, userId)),
    db
      .select(stored(getTableColumns(s.profiles)))
      .from(s.profiles)
      .where(eq(s.profiles.userId, userId)),
    db
      .select({ interestId: s.profileInterests.interestId })
      .from(s.profileInterests)
      .where(eq(s.profileInterests.userId, userId)),
    db
      .select(
        stored({ a: s.photos.id, b: s.photos.isPrivate, c: s.photos.width, d: s.photos.height, e: s.photos.createdAt }),
      )
      .from(s.photos)
      .where(eq(s.photos.userId, userId)),
    db
      .select(stored({ a: s.likes.likedId, b: s.likes.source, c: s.likes.createdAt }))
      .from(s.likes)
      .where(eq(s.likes.likerId, userId)),
    db
      .select(stored({ a: s.likes.likerId, b: s.likes.createdAt }))
      .from(s.likes)
      .where(eq(s.likes.likedId, userId)),
    db
      .select(stored({ a: s.blocks.blockedId, b: s.blocks.createdAt }))
      .from(s.blocks)
      .where(eq(s.blocks.blockerId, userId)),
    db
      .select({
        ...stored({
          a: s.conversations.id,
          b: s.conversations.memberA,
          c: s.conversations.memberB,
          d: s.conversations.createdAt,
        }),
        // Said plainly (decision 201): the other side was a profile run by the brand's team.
        with_team_run_profile: sql<number>`EXISTS (SELECT 1 FROM ${s.profiles} WHERE ${s.profiles.fictional} = 1
          AND ${s.profiles.userId} IN (${s.conversations.memberA}, ${s.conversations.memberB}))`.mapWith(Boolean),
      })
      .from(s.conversations)
      .where(or(eq(s.conversations.memberA, userId), eq(s.conversations.memberB, userId))),
    db
      .select(
        stored({
          a: s.payments.id,
          b: s.payments.packageId,
          c: s.payments.credits,
          d: s.payments.amountCents,
          e: s.payments.currency,
          f: s.payments.method,
          g: s.payments.status,
          h: s.payments.createdAt,
        }),
      )
      .from(s.payments)
      .where(eq(s.payments.userId, userId)),
    db
      .select(
        stored({
          a: s.notificationsDisabled.type,
          b: s.notificationsDisabled.reason,
          c: s.notificationsDisabled.createdAt,
        }),
      )
      .from(s.notificationsDisabled)
      .where(eq(s.notificationsDisabled.userId, userId)),
    db
      .select(stored({ a: s.discountCodes.code, b: s.discountCodes.valuePercentage, c: s.discountCodes.expires }))
      .from(s.discountCodes)
      .where(eq(s.discountCodes.userId, userId)),
    // The proof of age (decision 185: a method and two dates) and the member's open or settled
    // requests (kept ten minutes); a request's nonce and reader key are secrets of the check, not data about them.
    db
      .select(stored({ a: s.ageProofs.method, b: s.ageProofs.provedAt, c: s.ageProofs.validUntil }))
      .from(s.ageProofs)
      .where(eq(s.ageProofs.subject, userId)),
    db
      .select(
        stored({
          a: s.ageRequests.country,
          b: s.ageRequests.next,
          c: s.ageRequests.status,
          d: s.ageRequests.reason,
          e: s.ageRequests.createdAt,
          f: s.ageRequests.expiresAt,
        }),
      )
      .from(s.ageRequests)
      .where(eq(s.ageRequests.subject, userId)),
  ]);
  // The member's messages live in their conversations' objects (decision 190).
  const messages = (await messagesSentBy(env, userId)).map((m) => ({
    conversation_id: m.conversationId,
    kind: m.kind,
    body: m.body,
    gift_id: m.giftId,
    credits_charged: m.creditsCharged,
    created_at: m.createdAt,
  }));
  // The ledger and the balance live in the member's wallet (decision 189), under the names they had in
  // D1: users.credits is the wallet's copy, seconds behind a chat spend, so the export shows the wallet's.
  const [rows, balance] = await Promise.all([
    walletLedger(env, userId, { oldestFirst: true }),
    walletBalance(env, userId),
  ]);
  const ledger = rows.map((r) => ({
    delta: r.delta,
    reason: r.reason,
    ref_id: r.refId,
    created_at: r.createdAt,
  }));
  return {
    exported_at: new Date().toISOString(),
    user: user[0] ? { ...user[0], credits: balance } : {},
    profile: profile[0] ?? null,
    interests: interests.map((r) => r.interestId),
    photos,
    likes_given: likesGiven,
    likes_received: likesReceived,
    blocks,
    conversations,
    messages_sent: messages,
    credit_ledger: ledger,
    payments,
    notifications_disabled: notifications,
    discount_codes: discounts,
    age_proofs: ageProofs,
    age_requests: ageRequests,
  };
}

export type { TokenKind };
