/**
 * Operator accounts (decision 167): staff are not members. Their own table, login (with the
 * members' password hashing, lockout and throttles), RFC 6238 second factor, sessions (own cookie,
 * only sent to /admin, own table) and the one role check every /admin loader and action calls.
 */
import { createCookie, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { and, eq, gt, sql } from "drizzle-orm";
import { generateHOTP } from "@oslojs/otp";
import { getDb, schema } from "../../../db/client";
import type { OperatorRole } from "../../../db/schema";
import { nowS } from "~/lib/dates";
import { isDeployed, type Env } from "~/lib/env";
import { randomId, sha256, verifyPassword } from "~/lib/password";
import {
  LOGIN_BLOCK_MINUTES,
  LOGIN_MAX_ATTEMPTS,
  accountFailureStatement,
  clientFailureStatement,
  dummyHash,
  failedAddressStatements,
  minutesLeft,
  normalizeEmail,
} from "../accounts.server";
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
} as const satisfies Record<string, readonly OperatorRole[]>;
export type OperatorArea = keyof typeof OPERATOR_AREAS;

export const mayOpen = (role: OperatorRole, area: OperatorArea) =>
  (OPERATOR_AREAS[area] as readonly OperatorRole[]).includes(role);

/** An operator session lasts a working day; it is not renewed. */
export const OPERATOR_SESSION_HOURS = 12;
const TOTP_PERIOD = 30;
const TOTP_DIGITS = 6;

export type Operator = Pick<typeof schema.operators.$inferSelect, "id" | "email" | "name" | "role">;

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
  | { ok: false; reason: "failed" | "code" }
  | { ok: false; reason: "blocked"; minutes: number };

const failKey = (ip: string, email: string) => `op-login-fail:ip:${ip}:${email}`;

/**
 * Checks e-mail, password and (when the operator has a key, and always in production) the TOTP
 * code, with the members' lockout rules (decision 088): LOGIN_MAX_ATTEMPTS failures from one
 * client lock it out for LOGIN_BLOCK_MINUTES; LOGIN_ACCOUNT_MAX_ATTEMPTS from all clients lock the
 * account. A wrong code counts as a failure. Operators have no known devices (no exemption).
 */
export async function operatorLogin(
  env: OperatorEnv,
  email: string,
  password: string,
  code: string,
  ip: string,
  now = nowS(),
): Promise<OperatorLoginResult> {
  const d1 = env.DB;
  const db = getDb(d1);
  const address = normalizeEmail(email);
  const key = failKey(ip, address);
  const { operators, counters } = schema;
  const [[op], [clientLock]] = await db.batch([
    db.select().from(operators).where(eq(operators.email, address)),
    db
      .select({ expiresAt: counters.expiresAt })
      .from(counters)
      .where(and(eq(counters.key, key), gt(counters.expiresAt, now), sql`${counters.count} >= ${LOGIN_MAX_ATTEMPTS}`)),
  ]);
  if (!op || op.disabled) {
    await verifyPassword(password, await dummyHash(env.PASSWORD_PEPPER), env.PASSWORD_PEPPER);
    await db.batch(failedAddressStatements(db, ip, address, now));
    return { ok: false, reason: "failed" };
  }
  if (clientLock) return { ok: false, reason: "blocked", minutes: minutesLeft(clientLock.expiresAt, now) };
  if (op.blockedUntil && op.blockedUntil > now)
    return { ok: false, reason: "blocked", minutes: minutesLeft(op.blockedUntil, now) };
  const passwordOk = await verifyPassword(password, op.passwordHash, env.PASSWORD_PEPPER);
  const step = passwordOk && op.totpSecret ? totpStep(op.totpSecret, code.trim(), op.totpLastStep, now) : null;
  // Production: no operator without a second factor (operator:create always enrols one).
  const factorOk = op.totpSecret ? step !== null : !isDeployed(env);
  if (passwordOk && factorOk) {
    const actor = { id: op.id, role: op.role };
    await db.batch([
      db
        .update(operators)
        .set({ failedLogins: 0, ...(step !== null ? { totpLastStep: step } : {}) })
        .where(eq(operators.id, op.id)),
      db.delete(counters).where(eq(counters.key, key)),
      auditStatement(db, actor, { action: "operator.login", targetType: "operator", targetId: op.id }, now),
    ]);
    return { ok: true, operator: { id: op.id, email: op.email, name: op.name, role: op.role } };
  }
  const until = now + LOGIN_BLOCK_MINUTES * 60;
  const [clientRow, accountRow] = await db.batch([
    clientFailureStatement(db, key, now),
    accountFailureStatement(db, operators, op.id, until),
    ...failedAddressStatements(db, ip, address, now),
  ]);
  if ((clientRow[0]?.count ?? 0) >= LOGIN_MAX_ATTEMPTS || accountRow[0]?.blockedUntil === until) {
    return { ok: false, reason: "blocked", minutes: LOGIN_BLOCK_MINUTES };
  }
  return { ok: false, reason: passwordOk ? "code" : "failed" };
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

const perRequest = new WeakMap<object, Promise<Operator | null>>();

/** The operator of this request (an enabled account with a live session), or null. */
export function getOperator(request: Request, context: SessionEnv): Promise<Operator | null> {
  let found = perRequest.get(context);
  if (!found) {
    found = (async () => {
      const hash = await operatorSessionHash(request, context);
      if (!hash) return null;
      const { operators, operatorSessions } = schema;
      const [row] = await getDb(context.env.DB)
        .select({ id: operators.id, email: operators.email, name: operators.name, role: operators.role })
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

/**
 * The check every /admin loader and action makes: no operator session (a visitor, a member's
 * session) goes to the login page; a role that may not open `area` gets 403. Never content.
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
  if (!mayOpen(operator.role, area))
    throw new Response("Forbidden: your role does not open this page.", { status: 403 });
  return operator;
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
      createdAt: operators.createdAt,
    })
    .from(operators)
    .orderBy(operators.email);
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
  // Guarded chain: the audit row depends on this UPDATE's changes().
  const [changed] = await db.batch([
    db
      .update(operators)
      .set({ disabled })
      .where(and(eq(operators.id, id), eq(operators.disabled, !disabled))),
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
