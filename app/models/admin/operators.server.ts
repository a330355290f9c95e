/**
 * Operator accounts (decision 167): staff are not members. Their own table, login (with the
 * members' password hashing, lockout and throttles), RFC 6238 second factor, sessions (own cookie,
 * only sent to /admin, own table) and the one role check every /admin loader and action calls.
 */
import { createCookie, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, gt, sql } from "drizzle-orm";
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp";
import { getDb, schema } from "../../../db/client";
import type { OperatorRole } from "../../../db/schema";
import { nowS } from "~/lib/dates";
import { isDeployed, type Env } from "~/lib/env";
import { hashPassword, randomId, sha256, verifyPassword } from "~/lib/password";
import {
  LOGIN_BLOCK_MINUTES,
  LOGIN_MAX_ATTEMPTS,
  accountFailureStatement,
  clientFailureStatement,
  dummyHash,
  failedAddressStatements,
  minutesLeft,
} from "../accounts/login.server";
import { normalizeEmail } from "../accounts/common.server";
import { auditAfterChange, auditStatement } from "./audit.server";

export { OPERATOR_ROLES, type OperatorRole } from "../../../db/schema";

/** What each part of the console needs; admin opens everything. The one table of who may do what. */
export const OPERATOR_AREAS = {
  /** The console's frame (every role); each page checks its own part. */
  console: ["moderator", "support", "finance", "chat_team", "admin"],
  home: ["moderator", "support", "finance", "admin"],
  /** The team-run profiles' inbox and the profiles themselves (decision 201): not moderators, nobody seeing payments. */
  inbox: ["chat_team", "admin"],
  reports: ["moderator", "admin"],
  photos: ["moderator", "admin"],
  appeals: ["moderator", "admin"],
  transparency: ["moderator", "admin"],
  /** Evidence of minors and intimate imagery, and the escalations to the authorities (decision 218). */
  evidence: ["admin"],
  members: ["support", "admin"],
  payments: ["finance", "admin"],
  codes: ["finance", "admin"],
  packages: ["admin"],
  brands: ["admin"],
  campaigns: ["support", "admin"],
  audit: ["admin"],
  operators: ["admin"],
  /** Requests above a threshold waiting for a second admin (decision 217). */
  approvals: ["admin"],
} as const satisfies Record<string, readonly OperatorRole[]>;
export type OperatorArea = keyof typeof OPERATOR_AREAS;

export const mayOpen = (role: OperatorRole, area: OperatorArea) =>
  (OPERATOR_AREAS[area] as readonly OperatorRole[]).includes(role);

/** An operator session lasts a working day; it is not renewed. */
export const OPERATOR_SESSION_HOURS = 12;
const TOTP_PERIOD = 30;
const TOTP_DIGITS = 6;

export type Operator = Pick<typeof schema.operators.$inferSelect, "id" | "email" | "name" | "role"> & {
  /** The brands a chat team member works for (decision 211); null or absent: every brand. */
  brandIds?: number[] | null;
};

/**
 * The brands whose team-run profiles and conversations this operator may see (decision 211), or null
 * for every brand. Only the chat team is limited: the admin sees every brand.
 */
export const brandScope = (operator: Operator): number[] | null =>
  operator.role === "chat_team" && operator.brandIds ? operator.brandIds : null;
/** May this operator work on this brand's team-run profiles? */
export const inBrandScope = (operator: Operator, brandId: number) => {
  const scope = brandScope(operator);
  return scope === null || scope.includes(brandId);
};

type OperatorEnv = Pick<Env, "DB" | "ENVIRONMENT" | "PASSWORD_PEPPER">;

// ---------------------------------------------------------------------------------------------
// Second factor

/** A new random TOTP key (160 bits, RFC 4226's recommendation), base64 as stored. */
export function newTotpKey(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(20))));
}
const keyBytes = (stored: string) => Uint8Array.from(atob(stored), (c) => c.charCodeAt(0));

/** The code an authenticator app shows at `now` (tests and the create script's self-check). */
export function totpCode(stored: string, now = nowS()): string {
  return generateHOTP(keyBytes(stored), BigInt(Math.floor(now / TOTP_PERIOD)), TOTP_DIGITS);
}

/**
 * The 30-second step `code` belongs to (this one or one either side, for clock drift), if it is
 * valid and newer than `lastStep`: each code works once.
 */
export function totpStep(stored: string, code: string, lastStep: number, now = nowS()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = keyBytes(stored);
  const current = Math.floor(now / TOTP_PERIOD);
  for (const step of [current - 1, current, current + 1]) {
    if (step <= lastStep) continue;
    if (sameText(generateHOTP(key, BigInt(step), TOTP_DIGITS), code)) return step;
  }
  return null;
}

function sameText(a: string, b: string) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

// ---------------------------------------------------------------------------------------------
// Login

export type OperatorLoginResult =
  | { ok: true; operator: Operator }
  | { ok: false; reason: "failed" }
  | { ok: false; reason: "blocked"; minutes: number };

/** Who is logging in: the client address and the console's device cookie (the operator it was set for). */
export type OperatorClient = { ip: string; device?: { id: string; operatorId: string } | null };

const failKey = (ip: string, email: string) => `op-login-fail:ip:${ip}:${email}`;

/** Failed logins and lockouts are audited with no operator: whoever typed was not logged in. */
const LOGIN_FORM = { id: "", role: "login" };

/**
 * Checks e-mail, password and (when the operator has a key, and always in production) the TOTP
 * code (decision 216, after decision 088). A client is the operator's known device (the device cookie
 * of an earlier login, for this operator) or else the address: LOGIN_MAX_ATTEMPTS failures from one
 * client lock that client out for LOGIN_BLOCK_MINUTES. LOGIN_ACCOUNT_MAX_ATTEMPTS from all clients
 * lock the account for unknown devices only, and even then the right password with a right TOTP code
 * gets in (a code nobody can guess along with the password): someone who knows the address cannot
 * lock the operator out. Every failure of a real operator and every lock start is audited.
 * The answer never says which of password and code was wrong.
 */
export async function operatorLogin(
  env: OperatorEnv,
  email: string,
  password: string,
  code: string,
  client: OperatorClient | string,
  now = nowS(),
): Promise<OperatorLoginResult> {
  const { ip, device } = typeof client === "string" ? { ip: client, device: null } : client;
  const db = getDb(env.DB);
  const address = normalizeEmail(email);
  const { operators, counters } = schema;
  const [op] = await db.select().from(operators).where(eq(operators.email, address));
  if (!op || op.disabled) {
    await verifyPassword(password, await dummyHash(env.PASSWORD_PEPPER), env.PASSWORD_PEPPER);
    await db.batch(failedAddressStatements(db, ip, address, now));
    return { ok: false, reason: "failed" };
  }
  const known = device?.operatorId === op.id;
  const key = known ? `op-login-fail:d:${device!.id}` : failKey(ip, address);
  const [clientLock] = await db
    .select({ expiresAt: counters.expiresAt })
    .from(counters)
    .where(and(eq(counters.key, key), gt(counters.expiresAt, now), sql`${counters.count} >= ${LOGIN_MAX_ATTEMPTS}`));
  if (clientLock) return { ok: false, reason: "blocked", minutes: minutesLeft(clientLock.expiresAt, now) };
  const accountLocked = !!op.blockedUntil && op.blockedUntil > now;
  const passwordOk = await verifyPassword(password, op.passwordHash, env.PASSWORD_PEPPER);
  const step = passwordOk && op.totpSecret ? totpStep(op.totpSecret, code.trim(), op.totpLastStep, now) : null;
  // Production: no operator without a second factor, except to enrol one after the console made or reset it.
  const factorOk = op.totpSecret ? step !== null : !isDeployed(env) || op.mustEnrolTotp;
  const getsIn = passwordOk && factorOk && (!accountLocked || known || step !== null);
  const target = { targetType: "operator", targetId: op.id };
  if (getsIn) {
    const actor = { id: op.id, role: op.role };
    await db.batch([
      db
        .update(operators)
        // A running lock stays for unknown devices: the operator's success gives an attacker no new tries.
        .set({ failedLogins: 0, ...(step !== null ? { totpLastStep: step } : {}) })
        .where(eq(operators.id, op.id)),
      db.delete(counters).where(eq(counters.key, key)),
      auditStatement(db, actor, { action: "operator.login", ...target, after: { ip, knownDevice: known } }, now),
    ]);
    return { ok: true, operator: { id: op.id, email: op.email, name: op.name, role: op.role } };
  }
  const until = now + LOGIN_BLOCK_MINUTES * 60;
  const [clientRow, accountRow] = await db.batch([
    clientFailureStatement(db, key, now),
    accountFailureStatement(db, operators, op.id, until),
    ...failedAddressStatements(db, ip, address, now),
    auditStatement(
      db,
      LOGIN_FORM,
      { action: "operator.login_failed", ...target, after: { ip, knownDevice: known } },
      now,
    ),
  ]);
  const clientLocked = (clientRow[0]?.count ?? 0) >= LOGIN_MAX_ATTEMPTS;
  const accountLockStarted = accountRow[0]?.blockedUntil === until;
  if (clientLocked || accountLockStarted) {
    const scope = clientLocked ? (known ? "device" : "address") : "account";
    await auditStatement(db, LOGIN_FORM, { action: "operator.lockout", ...target, after: { ip, scope, until } }, now);
  }
  if (clientLocked || ((accountLocked || accountLockStarted) && !known))
    return { ok: false, reason: "blocked", minutes: LOGIN_BLOCK_MINUTES };
  return { ok: false, reason: "failed" };
}

/**
 * What every console page tells an admin (decision 216, 217): lockouts of staff accounts in the
 * last day, and how many requests wait for a second admin. One batch.
 */
export async function adminNotices(d1: D1Database, now = nowS()) {
  const db = getDb(d1);
  const { auditLog, operators, consoleApprovals } = schema;
  const [lockouts, [waiting]] = await db.batch([
    db
      .select({ at: auditLog.at, email: operators.email })
      .from(auditLog)
      .leftJoin(operators, eq(operators.id, auditLog.targetId))
      .where(and(gt(auditLog.at, now - 86_400), eq(auditLog.action, "operator.lockout")))
      .orderBy(sql`${auditLog.id} DESC`)
      .limit(5),
    db
      .select({ n: sql<number>`count(*)` })
      .from(consoleApprovals)
      .where(eq(consoleApprovals.status, "pending")),
  ]);
  return { lockouts, approvals: waiting?.n ?? 0 };
}

// ---------------------------------------------------------------------------------------------
// Sessions

type SessionEnv = { env: Pick<Env, "DB" | "SESSION_SECRET"> };

/** Sent by the browser to /admin only, so a member page never even sees it. */
function operatorCookie(context: SessionEnv) {
  return createCookie("op_sid", {
    httpOnly: true,
    secure: true,
    sameSite: "lax",
    path: "/admin",
    maxAge: OPERATOR_SESSION_HOURS * 3600,
    secrets: [context.env.SESSION_SECRET],
  });
}

async function operatorSessionHash(request: Request, context: SessionEnv): Promise<string | null> {
  const value: unknown = await operatorCookie(context).parse(request.headers.get("Cookie"));
  return typeof value === "string" ? sha256(value) : null;
}

/** Starts an operator session; returns the Set-Cookie header value. */
export async function startOperatorSession(
  request: Request,
  context: SessionEnv,
  operatorId: string,
  now = nowS(),
): Promise<string> {
  const sid = randomId(32);
  await getDb(context.env.DB)
    .insert(schema.operatorSessions)
    .values({
      idHash: await sha256(sid),
      operatorId,
      createdAt: now,
      expiresAt: now + OPERATOR_SESSION_HOURS * 3600,
      userAgent: (request.headers.get("User-Agent") ?? "").slice(0, 200),
    });
  return operatorCookie(context).serialize(sid);
}

/** The operator of a session, with what the console still asks of them before anything else (decision 216). */
export type SessionOperator = Operator & { mustChangePassword: boolean; mustEnrolTotp: boolean };

const perRequest = new WeakMap<object, Promise<SessionOperator | null>>();

/** The operator of this request (an enabled account with a live session), or null. */
export function getOperator(request: Request, context: SessionEnv): Promise<SessionOperator | null> {
  let found = perRequest.get(context);
  if (!found) {
    found = (async () => {
      const hash = await operatorSessionHash(request, context);
      if (!hash) return null;
      const { operators, operatorSessions } = schema;
      const [row] = await getDb(context.env.DB)
        .select({
          id: operators.id,
          email: operators.email,
          name: operators.name,
          role: operators.role,
          mustChangePassword: operators.mustChangePassword,
          mustEnrolTotp: operators.mustEnrolTotp,
          brandIds: operators.brandIds,
        })
        .from(operatorSessions)
        .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
        .where(
          and(eq(operatorSessions.idHash, hash), gt(operatorSessions.expiresAt, nowS()), eq(operators.disabled, false)),
        );
      return row ?? null;
    })();
    perRequest.set(context, found);
  }
  return found;
}

/** Whether the console still needs a new password or a second factor from this operator first. */
export const setupPending = (o: SessionOperator) => o.mustChangePassword || o.mustEnrolTotp;

/**
 * The check every /admin loader and action makes: no operator session (a visitor, a member's
 * session) goes to the login page; an operator with a one-time password or no second factor yet to
 * the setup page; a role that may not open `area` gets 403. Never content.
 */
export async function requireOperator(
  request: Request,
  context: AppLoadContext,
  area: OperatorArea,
): Promise<Operator> {
  const operator = await getOperator(request, context);
  if (!operator) {
    const url = new URL(request.url);
    throw redirect(`/admin/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`, {
      headers: { "Cache-Control": "no-store" },
    });
  }
  if (setupPending(operator)) throw redirect("/admin/setup", { headers: { "Cache-Control": "no-store" } });
  if (!mayOpen(operator.role, area))
    throw new Response("Forbidden: your role does not open this page.", { status: 403 });
  const { mustChangePassword: _p, mustEnrolTotp: _t, ...plain } = operator;
  return plain;
}

// ---------------------------------------------------------------------------------------------
// Known devices

const DEVICE_DAYS = 180;

/** Set at a successful login, sent to /admin only: this browser has logged in as this operator before. */
function deviceCookie(context: SessionEnv) {
  return createCookie("op_dev", {
    httpOnly: true,
    secure: true,
    sameSite: "lax",
    path: "/admin",
    maxAge: DEVICE_DAYS * 86_400,
    secrets: [context.env.SESSION_SECRET],
  });
}

/** The known device this request comes from (signed: it cannot be made up), or null. */
export async function operatorDevice(
  request: Request,
  context: SessionEnv,
): Promise<{ id: string; operatorId: string } | null> {
  const value: unknown = await deviceCookie(context).parse(request.headers.get("Cookie"));
  const m = typeof value === "string" ? /^([\w-]{1,100}):([\w-]{16,64})$/.exec(value) : null;
  return m ? { operatorId: m[1]!, id: m[2]! } : null;
}

/** The device cookie for `operatorId` after a login (the same device id when it already was theirs). */
export async function deviceCookieFor(request: Request, context: SessionEnv, operatorId: string): Promise<string> {
  const known = await operatorDevice(request, context);
  const id = known?.operatorId === operatorId ? known.id : randomId(24);
  return deviceCookie(context).serialize(`${operatorId}:${id}`);
}

/** Ends this request's operator session (audited); returns the Set-Cookie header that clears the cookie. */
export async function endOperatorSession(request: Request, context: SessionEnv): Promise<string> {
  const hash = await operatorSessionHash(request, context);
  const operator = await getOperator(request, context);
  if (hash && operator) {
    const db = getDb(context.env.DB);
    await db.batch([
      db.delete(schema.operatorSessions).where(eq(schema.operatorSessions.idHash, hash)),
      auditStatement(db, operator, { action: "operator.logout", targetType: "operator", targetId: operator.id }),
    ]);
  }
  return operatorCookie(context).serialize("", { maxAge: 0 });
}

// ---------------------------------------------------------------------------------------------
// Managing operators (admin)

export async function listOperators(d1: D1Database) {
  const { operators } = schema;
  return getDb(d1)
    .select({
      id: operators.id,
      email: operators.email,
      name: operators.name,
      role: operators.role,
      disabled: operators.disabled,
      hasTotp: sql<number>`${operators.totpSecret} IS NOT NULL`,
      setupPending: sql<number>`${operators.mustChangePassword} OR ${operators.mustEnrolTotp}`,
      brandIds: operators.brandIds,
      createdAt: operators.createdAt,
    })
    .from(operators)
    .orderBy(operators.email);
}

/** No change leaves the console without an enabled admin: true while another one than `id` exists. */
const anotherAdmin = (id: string) =>
  sql`(SELECT count(*) FROM operators o2 WHERE o2.role = 'admin' AND o2.disabled = 0 AND o2.id <> ${id}) >= 1`;

export type StaffResult = { ok: true; password?: string } | { ok: false; error: string };

/** A one-time password for a new or reset account: shown once to the admin, never stored in clear. */
const oneTimePassword = () => randomId(18);

type StaffEnv = Pick<Env, "DB" | "PASSWORD_PEPPER">;

/**
 * Adds an operator (decision 216): a one-time password shown once to the admin, who hands it over;
 * the first login then asks for a new password and a TOTP enrolment before anything else. Audited.
 */
export async function createOperatorAccount(
  env: StaffEnv,
  actor: Operator,
  input: { email: string; name: string; role: OperatorRole },
  now = nowS(),
): Promise<StaffResult & { id?: string }> {
  const db = getDb(env.DB);
  const password = oneTimePassword();
  const id = randomId();
  const email = normalizeEmail(input.email);
  const [res] = await db.batch([
    db
      .insert(schema.operators)
      .values({
        id,
        email,
        name: input.name,
        role: input.role,
        passwordHash: await hashPassword(password, env.PASSWORD_PEPPER),
        mustChangePassword: true,
        mustEnrolTotp: true,
        createdAt: now,
      })
      .onConflictDoNothing(),
    auditAfterChange(
      db,
      actor,
      { action: "operator.create", targetType: "operator", targetId: id, after: { email, role: input.role } },
      now,
    ),
  ]);
  if (res.meta.changes !== 1) return { ok: false, error: `${email} already has an operator account.` };
  return { ok: true, id, password };
}

/**
 * Changes an operator's role, audited with before and after. Never one's own (an admin cannot demote
 * themselves out of the console), never the last enabled admin's; guarded on the role read.
 */
export async function changeOperatorRole(
  d1: D1Database,
  actor: Operator,
  id: string,
  role: OperatorRole,
  reason: string,
  now = nowS(),
): Promise<StaffResult> {
  if (id === actor.id) return { ok: false, error: "You cannot change your own role." };
  const db = getDb(d1);
  const { operators } = schema;
  const [before] = await db.select({ role: operators.role }).from(operators).where(eq(operators.id, id));
  if (!before) return { ok: false, error: "There is no such operator." };
  if (before.role === role) return { ok: false, error: "The operator already has that role." };
  const [res] = await db.batch([
    db
      .update(operators)
      .set({ role })
      .where(
        and(
          eq(operators.id, id),
          eq(operators.role, before.role),
          before.role === "admin" ? anotherAdmin(id) : undefined,
        ),
      ),
    auditAfterChange(
      db,
      actor,
      { action: "operator.role", targetType: "operator", targetId: id, reason, before, after: { role } },
      now,
    ),
  ]);
  if (res.meta.changes !== 1)
    return {
      ok: false,
      error: "Nothing changed: the console must keep an enabled admin (or the role changed meanwhile).",
    };
  return { ok: true };
}

/**
 * Resets an operator's password, or their second factor (decision 216): a new one-time password
 * either way (a second factor reset with the old password would let whoever has it enrol their own
 * key), their sessions end, a running lock is lifted; the next login asks for a new password, and
 * after a second factor reset for a new enrolment. Never one's own. Audited, without the password.
 */
export async function resetOperator(
  env: StaffEnv,
  actor: Operator,
  id: string,
  what: "password" | "totp",
  reason: string,
  now = nowS(),
): Promise<StaffResult> {
  if (id === actor.id) return { ok: false, error: "Reset your own account through another admin." };
  const db = getDb(env.DB);
  const { operators, operatorSessions } = schema;
  const password = oneTimePassword();
  const [res] = await db.batch([
    db
      .update(operators)
      .set({
        passwordHash: await hashPassword(password, env.PASSWORD_PEPPER),
        mustChangePassword: true,
        failedLogins: 0,
        blockedUntil: null,
        ...(what === "totp" ? { totpSecret: null, mustEnrolTotp: true } : {}),
      })
      .where(and(eq(operators.id, id), eq(operators.disabled, false))),
    auditAfterChange(
      db,
      actor,
      {
        action: what === "totp" ? "operator.reset_totp" : "operator.reset_password",
        targetType: "operator",
        targetId: id,
        reason,
      },
      now,
    ),
    db.delete(operatorSessions).where(eq(operatorSessions.operatorId, id)),
  ]);
  if (res.meta.changes !== 1) return { ok: false, error: "There is no such enabled operator." };
  return { ok: true, password };
}

/**
 * The setup the console asks for first (decision 216): a new password (not the one-time one) and,
 * when asked, a TOTP key proven by a code from it. Guarded on the flags read; audited without secrets.
 */
export async function completeSetup(
  env: StaffEnv,
  operator: SessionOperator,
  input: { password: string; key: string; code: string },
  now = nowS(),
): Promise<StaffResult> {
  const db = getDb(env.DB);
  const { operators } = schema;
  const [row] = await db.select().from(operators).where(eq(operators.id, operator.id));
  if (!row) return { ok: false, error: "There is no such operator." };
  const set: Partial<typeof operators.$inferInsert> = {};
  if (row.mustChangePassword) {
    if (input.password.length < OPERATOR_PASSWORD_MIN)
      return { ok: false, error: `Choose a password of at least ${OPERATOR_PASSWORD_MIN} characters.` };
    if (await verifyPassword(input.password, row.passwordHash, env.PASSWORD_PEPPER))
      return { ok: false, error: "Choose a new password, not the one-time password." };
    set.passwordHash = await hashPassword(input.password, env.PASSWORD_PEPPER);
    set.mustChangePassword = false;
  }
  if (row.mustEnrolTotp) {
    const step = /^[A-Za-z0-9+/]{27}=$/.test(input.key) ? totpStep(input.key, input.code.trim(), 0, now) : null;
    if (step === null)
      return {
        ok: false,
        error: "The authentication code does not match the key: scan it again and give the current code.",
      };
    set.totpSecret = input.key;
    set.totpLastStep = step;
    set.mustEnrolTotp = false;
  }
  const [res] = await db.batch([
    db
      .update(operators)
      .set(set)
      .where(
        and(
          eq(operators.id, row.id),
          eq(operators.mustChangePassword, row.mustChangePassword),
          eq(operators.mustEnrolTotp, row.mustEnrolTotp),
        ),
      ),
    auditAfterChange(
      db,
      operator,
      {
        action: "operator.setup",
        targetType: "operator",
        targetId: row.id,
        after: { password: row.mustChangePassword, totp: row.mustEnrolTotp },
      },
      now,
    ),
  ]);
  return res.meta.changes === 1 ? { ok: true } : { ok: false, error: "Nothing changed (reload the page)." };
}

/** An operator's chosen password: longer than members' (the console opens everyone's data). */
export const OPERATOR_PASSWORD_MIN = 12;

/** RFC 4648 base32 without padding: how authenticator apps take a key typed in by hand. */
function base32(bytes: Uint8Array): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  let out = "";
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + alphabet[(value << (5 - bits)) & 31] : out;
}

/** The enrolment a new key offers: the otpauth:// URI an authenticator app scans, and its key in base32. */
export function totpEnrolment(key: string, email: string) {
  const bytes = keyBytes(key);
  return { uri: createTOTPKeyURI("Dating console", email, bytes, TOTP_PERIOD, TOTP_DIGITS), secret: base32(bytes) };
}

/**
 * Disables or enables an operator, with the reason, audited in the same batch. Disabling ends their
 * sessions at once. Guarded on the previous state: a repeated post changes (and logs) nothing.
 * An admin cannot disable themselves (the console would lose its last way in).
 */
export async function setOperatorDisabled(
  d1: D1Database,
  actor: Operator,
  id: string,
  disabled: boolean,
  reason: string,
): Promise<boolean> {
  if (id === actor.id) return false;
  const db = getDb(d1);
  const { operators, operatorSessions } = schema;
  // Never the last enabled admin (decision 216).
  // Guarded chain: the audit row depends on this UPDATE's changes().
  const [changed] = await db.batch([
    db
      .update(operators)
      .set({ disabled })
      .where(and(eq(operators.id, id), eq(operators.disabled, !disabled), disabled ? anotherAdmin(id) : undefined)),
    auditAfterChange(db, actor, {
      action: disabled ? "operator.disable" : "operator.enable",
      targetType: "operator",
      targetId: id,
      reason,
      before: { disabled: !disabled },
      after: { disabled },
    }),
    ...(disabled ? [db.delete(operatorSessions).where(eq(operatorSessions.operatorId, id))] : []),
  ]);
  return (changed?.meta.changes ?? 0) === 1;
}

/**
 * Limits a chat team member to some brands (decision 211; an empty list: every brand), audited in the
 * same batch. Only chat team accounts are limited.
 */
export async function setOperatorBrands(d1: D1Database, actor: Operator, id: string, brandIds: number[]) {
  const db = getDb(d1);
  const { operators, brands } = schema;
  const known = brandIds.length
    ? (await db.select({ id: brands.id }).from(brands)).map((b) => b.id).filter((b) => brandIds.includes(b))
    : [];
  if (known.length !== new Set(brandIds).size) return false;
  const value = known.length ? known.sort((a, b) => a - b) : null;
  const [changed] = await db.batch([
    db
      .update(operators)
      .set({ brandIds: value })
      .where(and(eq(operators.id, id), eq(operators.role, "chat_team"))),
    auditAfterChange(db, actor, {
      action: "operator.brands",
      targetType: "operator",
      targetId: id,
      after: { brandIds: value },
    }),
  ]);
  return (changed?.meta.changes ?? 0) === 1;
}
