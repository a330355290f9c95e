/** Accounts: logging in, with the lockout and the throttling of one client trying many addresses (decisions 040, 088). */
import type { Env } from "~/lib/env";
import { normalizeEmail, HOUR, type AccountEnv, takeDailyQuota, sendAccountMail } from "./common.server";
import { nowS } from "~/lib/dates";
import { schema, getDb, type Db } from "../../../db/client";
import { eq, sql, and, isNull } from "drizzle-orm";
import type { BrandWithCompany } from "../brand.server";
import { verifyPassword, hashPassword, randomId } from "~/lib/password";

/** Wrong passwords in a row before the account is blocked, and for how long. */
export const LOGIN_MAX_ATTEMPTS = 5;
export const LOGIN_BLOCK_MINUTES = 15;

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
