/**
 * The console's members part (decision 177): finding a member, their account at a glance, and
 * support's actions. Only what is the console's own lives here (the search, the page's reads, the
 * audit rows); every rule stays in the model that owns it (accounts, session, credits, direct
 * debit), and each action's audit row goes into that model's batch.
 */
import { and, asc, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { getDb, schema, toStatement, type Db } from "../../../db/client";
import { nowS } from "~/lib/dates";
import { NOTIFICATION_TYPES } from "~/lib/constants";
import { deleteAccount } from "../accounts/deletion.server";
import { notificationSettingsStatements, startMailChange } from "../accounts/settings.server";
import { resendActivation } from "../accounts/signup.server";
import { type AccountEnv, type AccountHolder } from "../accounts/common.server";
import { getBrandById, type BrandWithCompany } from "../brand.server";
import { shownBalance, walletBalance, walletLedger, walletSummary, type WalletEnv } from "../../wallet/wallet.server";
import { applyThroughOutbox } from "../../wallet/outbox.server";
import { randomId } from "~/lib/password";
import { blockStatement, unblockStatement } from "../directdebit.server";
import { endAllSessions } from "../session.server";
import { auditAfterChange, auditStatement, type Actor, type AuditEntry } from "./audit.server";

export const MEMBERS_PAGE = 50;
/** The most credits one console correction may move (a typo of an extra zero stays small). */
export const MAX_ADJUSTMENT = 100_000;

// ---------------------------------------------------------------------------------------------
// Search

export type MemberHit = {
  id: string;
  email: string;
  name: string | null;
  brandId: number;
  brandName: string;
  status: "not_confirmed" | "confirmed";
  credits: number;
  paidUser: boolean;
  createdAt: number;
  deletedAt: number | null;
  /** How it was found: the member's id, one of their payments, or the text search. */
  via: "id" | "payment" | "list";
};

/** Where the next page starts: the sort value and id of the last row shown. */
export type Cursor = { key: string; id: string };

const hitColumns = () => {
  const { users, profiles, brands } = schema;
  return {
    id: users.id,
    email: users.email,
    name: profiles.name,
    brandId: users.brandId,
    // Aliased: two columns named "name" in one row would overwrite each other.
    brandName: sql<string>`${brands.name}`.as("brand_name"),
    status: users.status,
    credits: users.credits,
    paidUser: users.paidUser,
    createdAt: users.createdAt,
    deletedAt: users.deletedAt,
  };
};

/** A prefix as a range on a plain (binary) index: [p, p + U+FFFF). */
const prefix = (col: SQL | typeof schema.users.email | typeof schema.profiles.name, p: string) =>
  and(sql`${col} >= ${p}`, sql`${col} < ${`${p}\uffff`}`)!;

/**
 * Finds members by what support is told: an e-mail address (or its beginning), a name (its
 * beginning, as typed or capitalised), a member id, or a payment id (ours or the provider's).
 * Keyset-paged (no OFFSET): `after` is the last row of the page before. An empty query lists the
 * newest members. One round trip.
 */
export async function searchMembers(
  d1: D1Database,
  rawQuery: string,
  after?: Cursor | null,
): Promise<{ hits: MemberHit[]; next: Cursor | null; mode: "newest" | "email" | "name" }> {
  const db = getDb(d1);
  const { users, profiles, payments, brands } = schema;
  const q = rawQuery.trim().slice(0, 200);
  const base = () =>
    db
      .select(hitColumns())
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .innerJoin(brands, eq(brands.id, users.brandId));
  // By name: from the profiles' name index outwards (an inner join lets the planner start there).
  const byNameBase = () =>
    db
      .select(hitColumns())
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .innerJoin(brands, eq(brands.id, users.brandId));
  const page = MEMBERS_PAGE + 1;

  if (!q) {
    const at = Number(after?.key);
    const rows = await base()
      .where(
        after && Number.isInteger(at)
          ? or(lt(users.createdAt, at), and(eq(users.createdAt, at), lt(users.id, after.id)))
          : undefined,
      )
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(page);
    return paged(rows, "list", (r) => String(r.createdAt), "newest");
  }

  if (q.includes("@")) {
    const p = q.toLowerCase();
    const rows = await base()
      .where(
        and(
          prefix(users.email, p),
          after ? or(gt(users.email, after.key), and(eq(users.email, after.key), gt(users.id, after.id))) : undefined,
        ),
      )
      .orderBy(asc(users.email), asc(users.id))
      .limit(page);
    return paged(rows, "list", (r) => r.email, "email");
  }

  // An id of a member or of a payment (ours or the provider's) is exact; beside it, names by prefix.
  const capital = q.charAt(0).toUpperCase() + q.slice(1);
  const names = [...new Set([q, capital])];
  const [byId, byPayment, byName] = await db.batch([
    base().where(eq(users.id, q)),
    base()
      .innerJoin(payments, eq(payments.userId, users.id))
      .where(
        or(eq(payments.id, q), and(inArray(payments.provider, ["sandbox", "mollie"]), eq(payments.providerRef, q))),
      )
      .limit(10),
    byNameBase()
      .where(
        and(
          or(...names.map((n) => prefix(profiles.name, n))),
          after
            ? or(gt(profiles.name, after.key), and(eq(profiles.name, after.key), gt(profiles.userId, after.id)))
            : undefined,
        ),
      )
      .orderBy(asc(profiles.name), asc(profiles.userId))
      .limit(page),
  ]);
  const exact: MemberHit[] = after
    ? []
    : [
        ...byId.map((r) => ({ ...r, via: "id" as const })),
        ...byPayment.map((r) => ({ ...r, via: "payment" as const })),
      ];
  const listed = paged(byName, "list", (r) => r.name ?? "", "name");
  const seen = new Set(exact.map((h) => h.id));
  return { ...listed, hits: [...exact, ...listed.hits.filter((h) => !seen.has(h.id))] };
}

/** The hits with the balance each member has: their wallet's (all asked at once), D1's copy only for one out of reach. */
export async function withBalances(env: WalletEnv, hits: MemberHit[]): Promise<MemberHit[]> {
  return Promise.all(hits.map(async (h) => ({ ...h, credits: await shownBalance(env, h.id, h.credits) })));
}

function paged<R extends Omit<MemberHit, "via">, M extends string>(
  rows: R[],
  via: MemberHit["via"],
  key: (r: R) => string,
  mode: M,
) {
  const more = rows.length > MEMBERS_PAGE;
  const shown = rows.slice(0, MEMBERS_PAGE);
  const last = shown.at(-1);
  return {
    hits: shown.map((r) => ({ ...r, via })),
    next: more && last ? { key: key(last), id: last.id } : null,
    mode,
  };
}

// ---------------------------------------------------------------------------------------------
// The member page

export const LEDGER_ROWS = 100;

/**
 * Everything support sees of one member, in one D1 round trip and one to their wallet (the balance
 * and the ledger live there, decision 189); null if there is no such member.
 */
export async function memberAccount(env: Pick<ConsoleEnv, "DB" | "MEMBER_HUB">, id: string, now = nowS()) {
  const db = getDb(env.DB);
  const s = schema;
  const [[user], payments, refunds, sessions, devices, disabled, decisions, cases, pendingMail, audit, holds] =
    await db.batch([
      db
        .select({
          user: s.users,
          // Aliased: a batch's rows are keyed by column name, and users has a "status" too.
          name: sql<string | null>`${s.profiles.name}`.as("profile_name"),
          profileStatus: sql<"active" | "disabled" | "suspended" | null>`${s.profiles.status}`.as("profile_status"),
          country: sql<string | null>`${s.profiles.country}`.as("profile_country"),
          city: sql<string | null>`${s.profiles.city}`.as("profile_city"),
          brandName: sql<string>`${s.brands.name}`.as("brand_name"),
          brandDomain: s.brands.domain,
        })
        .from(s.users)
        .leftJoin(s.profiles, eq(s.profiles.userId, s.users.id))
        .innerJoin(s.brands, eq(s.brands.id, s.users.brandId))
        .where(eq(s.users.id, id)),
      db
        .select({
          id: s.payments.id,
          provider: s.payments.provider,
          providerRef: s.payments.providerRef,
          status: s.payments.status,
          amountCents: s.payments.amountCents,
          currency: s.payments.currency,
          method: s.payments.method,
          credits: s.payments.credits,
          createdAt: s.payments.createdAt,
          paidAt: s.payments.paidAt,
        })
        .from(s.payments)
        .where(eq(s.payments.userId, id))
        .orderBy(desc(s.payments.createdAt))
        .limit(50),
      db
        .select({
          paymentId: s.refunds.paymentId,
          amountCents: s.refunds.amountCents,
          currency: s.refunds.currency,
          credits: s.refunds.credits,
          status: s.refunds.status,
          createdAt: s.refunds.createdAt,
        })
        .from(s.refunds)
        .where(eq(s.refunds.userId, id))
        .orderBy(desc(s.refunds.createdAt))
        .limit(50),
      db
        .select({ createdAt: s.sessions.createdAt, expiresAt: s.sessions.expiresAt, userAgent: s.sessions.userAgent })
        .from(s.sessions)
        .where(and(eq(s.sessions.userId, id), gt(s.sessions.expiresAt, now)))
        .orderBy(desc(s.sessions.createdAt)),
      db
        .select({ endpoint: s.pushSubscriptions.endpoint, createdAt: s.pushSubscriptions.createdAt })
        .from(s.pushSubscriptions)
        .where(eq(s.pushSubscriptions.userId, id)),
      db
        .select({ type: s.notificationsDisabled.type, reason: s.notificationsDisabled.reason })
        .from(s.notificationsDisabled)
        .where(eq(s.notificationsDisabled.userId, id)),
      db
        .select({
          id: s.decisions.id,
          action: s.decisions.action,
          rule: s.decisions.rule,
          facts: s.decisions.facts,
          endsAt: s.decisions.endsAt,
          createdAt: s.decisions.createdAt,
          reversedAt: s.decisions.reversedAt,
        })
        .from(s.decisions)
        .where(eq(s.decisions.memberId, id))
        .orderBy(desc(s.decisions.createdAt)),
      db
        .select({
          id: s.moderationCases.id,
          targetType: s.moderationCases.targetType,
          openedAt: s.moderationCases.openedAt,
        })
        .from(s.moderationCases)
        .where(and(eq(s.moderationCases.memberId, id), eq(s.moderationCases.status, "open"))),
      db
        .select({ email: s.tokens.payload, expiresAt: s.tokens.expiresAt })
        .from(s.tokens)
        .where(
          and(
            eq(s.tokens.userId, id),
            eq(s.tokens.kind, "mail_change"),
            isNull(s.tokens.usedAt),
            gt(s.tokens.expiresAt, now),
          ),
        )
        .orderBy(desc(s.tokens.createdAt))
        .limit(1),
      db
        .select({ entry: s.auditLog, operatorEmail: s.operators.email })
        .from(s.auditLog)
        .leftJoin(s.operators, eq(s.operators.id, s.auditLog.operatorId))
        .where(and(eq(s.auditLog.targetType, "member"), eq(s.auditLog.targetId, id)))
        .orderBy(desc(s.auditLog.id))
        .limit(20),
      db.select().from(s.paymentHolds).where(eq(s.paymentHolds.userId, id)),
    ]);
  if (!user) return null;
  const [ledger, summary] = await Promise.all([walletLedger(env, id, { limit: LEDGER_ROWS }), walletSummary(env, id)]);
  // The wallet's balance is the truth; D1's users.credits is its copy (a chat spend's may lag seconds).
  const { passwordHash: _hash, ...stored } = user.user;
  const account = { ...stored, credits: summary.balance };
  const off = new Map(disabled.map((d) => [d.type, d.reason]));
  return {
    account,
    name: user.name,
    profileStatus: user.profileStatus,
    country: user.country,
    city: user.city,
    brand: { name: user.brandName, domain: user.brandDomain },
    ledger,
    // What the rows say, plus the balance imported without rows (none when the D1 ledger explained it).
    ledgerSum: summary.sum + summary.opening,
    ledgerCount: summary.rows,
    payments,
    refunds,
    sessions,
    devices: devices.map((d) => ({ host: hostOf(d.endpoint), createdAt: d.createdAt })),
    notifications: NOTIFICATION_TYPES.map((type) => ({ type, enabled: !off.has(type), reason: off.get(type) ?? null })),
    decisions,
    openCases: cases,
    pendingMail: pendingMail[0] ?? null,
    audit,
    /** Repeat orders and direct debit stopped after a chargeback, until support clears it. */
    paymentHold: holds[0] ?? null,
  };
}
export type MemberAccount = NonNullable<Awaited<ReturnType<typeof memberAccount>>>;

const hostOf = (u: string) => {
  try {
    return new URL(u).host;
  } catch {
    return "unknown";
  }
};

// ---------------------------------------------------------------------------------------------
// Actions (support, admin). Each: the owning model's change and its audit row in one batch.

export type ConsoleEnv = AccountEnv;
export type ActionResult = { ok: true } | { ok: false; error: string };

type Target = AccountHolder & { brand: BrandWithCompany; deletedAt: number | null };

async function target(env: ConsoleEnv, id: string): Promise<Target | null> {
  const { users, profiles } = schema;
  const [row] = await getDb(env.DB)
    .select({
      id: users.id,
      email: users.email,
      name: profiles.name,
      language: users.language,
      status: users.status,
      brandId: users.brandId,
      deletedAt: users.deletedAt,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, id));
  if (!row) return null;
  const brand = await getBrandById(env, row.brandId);
  if (!brand) return null;
  return { ...row, name: row.name ?? "", brand };
}

const ON_DELETED: ActionResult = { ok: false, error: "This account is deleted: nothing can be changed on it." };
const NOT_FOUND: ActionResult = { ok: false, error: "No such member." };

/** Every action needs its member, alive (a deleted account waits for its reactivation or purge). */
async function live(env: ConsoleEnv, id: string): Promise<Target | ActionResult> {
  const t = await target(env, id);
  if (!t) return NOT_FOUND;
  if (t.deletedAt) return ON_DELETED;
  return t;
}
const isResult = (x: Target | ActionResult): x is ActionResult => "ok" in x;

/** The audit entry of an action on this member: what it did and the before/after; the target and reason are the action's. */
type MemberAudit = (e: Pick<AuditEntry, "action" | "before" | "after">) => AuditEntry;

/**
 * A console action on a live member (not found and deleted accounts answer their error first): `run` gets the
 * member, the database, and `audit`, which completes its audit entry with the member as target and the reason.
 */
async function onLiveMember(
  env: ConsoleEnv,
  id: string,
  reason: string,
  run: (t: Target, db: Db, audit: MemberAudit) => Promise<ActionResult>,
): Promise<ActionResult> {
  const t = await live(env, id);
  if (isResult(t)) return t;
  return run(t, getDb(env.DB), (e) => ({ ...e, targetType: "member", targetId: id, reason }));
}

export type LinkOrigin = (brand: BrandWithCompany) => string;

export async function consoleResendActivation(
  env: ConsoleEnv,
  actor: Actor,
  id: string,
  reason: string,
  origin: LinkOrigin,
): Promise<ActionResult> {
  return onLiveMember(env, id, reason, async (t, db, audit) => {
    const entry = auditStatement(db, actor, audit({ action: "member.resend_activation" }));
    const r = await resendActivation(env, t.brand, t, origin(t.brand), [entry]);
    if (r === "confirmed")
      return { ok: false, error: "The address is already confirmed: there is nothing to activate." };
    if (r === "too_many")
      return { ok: false, error: "Three activation mails went out today already; try again tomorrow." };
    return { ok: true };
  });
}

export async function consoleChangeEmail(
  env: ConsoleEnv,
  actor: Actor,
  id: string,
  email: string,
  reason: string,
  origin: LinkOrigin,
): Promise<ActionResult> {
  return onLiveMember(env, id, reason, async (t, db, audit) => {
    const entry = auditStatement(
      db,
      actor,
      audit({
        action: "member.change_email",
        before: { email: t.email },
        after: { pending: email.trim().toLowerCase() },
      }),
    );
    const r = await startMailChange(env, t.brand, t, email, origin(t.brand), [entry]);
    if (r === "taken")
      return { ok: false, error: "That address is this account's already or belongs to another account of the brand." };
    return { ok: true };
  });
}

export async function consoleEndSessions(
  env: ConsoleEnv,
  actor: Actor,
  id: string,
  reason: string,
): Promise<ActionResult> {
  const t = await target(env, id);
  if (!t) return NOT_FOUND;
  const db = getDb(env.DB);
  await endAllSessions(env, id, [
    auditStatement(db, actor, { action: "member.end_sessions", targetType: "member", targetId: id, reason }),
  ]);
  return { ok: true };
}

/** Grants (delta > 0) or takes (delta < 0) credits through the credits model; a take never goes below zero. */
export async function consoleAdjustCredits(
  env: ConsoleEnv,
  actor: Actor,
  id: string,
  delta: number,
  reason: string,
): Promise<ActionResult> {
  if (!Number.isInteger(delta) || delta === 0 || Math.abs(delta) > MAX_ADJUSTMENT)
    return { ok: false, error: `Give a whole number of credits from 1 to ${MAX_ADJUSTMENT}.` };
  return onLiveMember(env, id, reason, async (t, db, audit) => {
    const action = delta > 0 ? "member.credits_grant" : "member.credits_take";
    // The balance before (the audit's), and a take it does not cover refused with nothing written.
    let before: number;
    try {
      before = await walletBalance(env, id);
    } catch {
      return { ok: false, error: "The member's wallet could not be reached. Nothing was changed; try again." };
    }
    if (before + delta < 0)
      return { ok: false, error: `Refused: the member has fewer than ${-delta} credits. Nothing was changed.` };
    // Exactly once (decision 194): the audit row and the wallet change's outbox row are one D1 batch, the
    // wallet applies it by the key grant:<id> the audit row names, retried (queue, cron) until it did.
    const key = `grant:${randomId()}`;
    const row = await applyThroughOutbox(
      env,
      { userId: id, kind: "apply", key, delta, reason: "adjustment", refId: `op:${actor.id}` },
      [
        toStatement(
          env.DB,
          auditStatement(db, actor, audit({ action, before: { credits: before }, after: { delta, key } })),
        ),
      ],
    );
    // Spent meanwhile (between the check and the apply): the outbox row records the refusal next to the audit row.
    if (row?.refused)
      return { ok: false, error: `Refused: the member has fewer than ${-delta} credits. Nothing was changed.` };
    return { ok: true };
  });
}

/**
 * Finance (or an admin) blocks direct debit for a member, or lifts the block (decision 228): no direct
 * debit or SEPA mandate is offered to them and no existing SEPA mandate is charged while it stands. The
 * guarded change and its audit row in one batch.
 */
function setDirectDebitBlock(blocked: boolean) {
  return (env: ConsoleEnv, actor: Actor, id: string, reason: string): Promise<ActionResult> =>
    onLiveMember(env, id, reason, async (_t, db, audit) => {
      const [changed] = await db.batch([
        (blocked ? blockStatement : unblockStatement)(env.DB, id),
        auditAfterChange(
          db,
          actor,
          audit({
            action: blocked ? "member.directdebit_block" : "member.directdebit_unblock",
            before: { directdebitBlocked: !blocked },
            after: { directdebitBlocked: blocked },
          }),
        ),
      ]);
      if ((changed.meta.changes ?? 0) !== 1)
        return {
          ok: false,
          error: blocked
            ? "Direct debit is already blocked for this member."
            : "Direct debit is not blocked for this member.",
        };
      return { ok: true };
    });
}

export const consoleBlockDirectDebit = setDirectDebitBlock(true);
export const consoleUnblockDirectDebit = setDirectDebitBlock(false);

/**
 * Support clears a member's payments hold after a chargeback (repeat orders and direct debit work
 * again): the hold's delete and the audit row in one batch, the audit row only when a hold was there.
 */
export async function consoleClearPaymentHold(
  env: ConsoleEnv,
  actor: Actor,
  id: string,
  reason: string,
): Promise<ActionResult> {
  return onLiveMember(env, id, reason, async (_t, db, audit) => {
    const hold = await db.select().from(schema.paymentHolds).where(eq(schema.paymentHolds.userId, id)).get();
    if (!hold) return { ok: false, error: "There is no payments hold on this member." };
    const [changed] = await db.batch([
      db
        .delete(schema.paymentHolds)
        .where(and(eq(schema.paymentHolds.userId, id), eq(schema.paymentHolds.paymentId, hold.paymentId))),
      auditAfterChange(
        db,
        actor,
        audit({
          action: "member.payment_hold_clear",
          before: { paymentHold: hold.paymentId },
          after: { paymentHold: null },
        }),
      ),
    ]);
    if ((changed.meta.changes ?? 0) !== 1) return { ok: false, error: "There is no payments hold on this member." };
    return { ok: true };
  });
}

/** Every notification type back on (also lifting a bounce or complaint block), as the member's own settings do. */
export async function consoleNotificationsOn(
  env: ConsoleEnv,
  actor: Actor,
  id: string,
  reason: string,
): Promise<ActionResult> {
  return onLiveMember(env, id, reason, async (_t, db, audit) => {
    const { notificationsDisabled: nd } = schema;
    const before = await db.select({ type: nd.type, reason: nd.reason }).from(nd).where(eq(nd.userId, id));
    if (!before.length) return { ok: false, error: "Every notification is on already." };
    const [first, ...rest] = notificationSettingsStatements(db, id, NOTIFICATION_TYPES);
    await db.batch([
      first,
      ...rest,
      auditStatement(
        db,
        actor,
        audit({ action: "member.notifications_on", before: { off: before }, after: { off: [] } }),
      ),
    ]);
    return { ok: true };
  });
}

/** The member's own deletion path (hidden at once, sessions ended, the reactivation link mailed). */
export async function consoleDeleteAccount(
  env: ConsoleEnv,
  actor: Actor,
  id: string,
  reason: string,
  origin: LinkOrigin,
): Promise<ActionResult> {
  return onLiveMember(env, id, reason, async (t, db, audit) => {
    await deleteAccount(env, t.brand, t, "other", `Deleted by support: ${reason}`, origin(t.brand), [
      auditStatement(db, actor, audit({ action: "member.delete" })),
    ]);
    return { ok: true };
  });
}
