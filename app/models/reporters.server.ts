/**
 * Reporters (DSA Art. 23, decision 225): a reporter's record of notices and their outcomes, and the
 * measure against one who frequently submits manifestly unfounded notices: a warning, then, after
 * it, a suspension of the processing of their notices for a period set per decision. It ends by
 * itself (`ends_at`, read at each notice: no job), can be lifted early, and each step is audited and
 * mailed to the reporter in their language with how to complain. While it runs, their notices are
 * received but set aside, except those alleging illegal content (ALWAYS_PROCESSED).
 *
 * A member reporter is named by id (a measure also holds the address they had, so reporting as a
 * visitor with it changes nothing); a visitor by address.
 */
import { and, count, desc, eq, gt, gte, isNull, or, sql, type SQL } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { nowS } from "~/lib/dates";
import type { Env } from "~/lib/env";
import { getFixedT } from "~/lib/i18n.server";
import { randomId } from "~/lib/password";
import { auditAfterChange, type Actor } from "./admin/audit.server";
import { mailerFor, renderMail } from "./mail.server";
import { decisionDate } from "./moderation-rules";
import {
  REPORTER_HINT,
  REPORTER_SUSPENSION_DAYS,
  WARNING_VALID_DAYS,
  crossesHint,
  reporterStats,
  type NoticeOutcome,
  type ReporterStats,
} from "./reporter-rules";

const DAY = 86_400;
const LANGS = ["da", "de", "en", "es", "fi", "fr", "it", "nb", "nl", "pl", "sv"];
const langOf = (l: string | null | undefined) => (l && LANGS.includes(l) ? l : "en");

/** Who reported: a member (id, and the address they have) or a visitor (address only). */
export type ReporterRef = { id: string; email: string } | { id: null; email: string };

/** The reporter a console URL names: a member's id, or a visitor's address. */
export function parseReporterRef(ref: string): { id: string } | { email: string } | null {
  const r = ref.trim();
  if (/^[\w-]{1,64}$/.test(r)) return { id: r };
  if (r.length <= 200 && /^[^\s@]+@[^\s@]+$/.test(r)) return { email: r.toLowerCase() };
  return null;
}

/** The link to a reporter's record from a notice. */
export const reporterHref = (n: { reporterId: string | null; reporterEmail: string | null }) =>
  `/admin/reporters/${encodeURIComponent(n.reporterId ?? n.reporterEmail ?? "")}`;

/** Whose notices a record counts: a member's by id, a visitor's by address. */
function noticesOf(r: { id: string | null; email: string }): SQL {
  const { notices } = schema;
  return r.id ? eq(notices.reporterId, r.id) : and(isNull(notices.reporterId), eq(notices.reporterEmail, r.email))!;
}

/** Measures that apply to a reporter: by member id or by the address (either way round). */
function measuresOf(r: { id: string | null; email: string }): SQL {
  const { reporterMeasures: m } = schema;
  return r.id ? or(eq(m.reporterId, r.id), eq(m.reporterEmail, r.email))! : eq(m.reporterEmail, r.email);
}

/**
 * A notice's outcome from its case: open is pending; closed with an unreversed restriction is
 * action; otherwise (no action, or every restriction reversed on appeal) no action.
 */
function outcomeSql() {
  const { notices, moderationCases: cases, decisions } = schema;
  return sql<NoticeOutcome>`CASE WHEN ${cases.status} = 'open' THEN 'pending'
    WHEN EXISTS (SELECT 1 FROM ${decisions} WHERE ${decisions.caseId} = ${notices.caseId}
      AND ${decisions.reversedAt} IS NULL AND ${decisions.action} != 'no_action') THEN 'action'
    ELSE 'no_action' END`;
}

/** The suspension running for this reporter at `now`, if any (ended or lifted ones do not count). */
export async function activeReporterSuspension(d1: D1Database, r: ReporterRef, now = nowS()) {
  const { reporterMeasures: m } = schema;
  const [row] = await getDb(d1)
    .select({ id: m.id, endsAt: m.endsAt })
    .from(m)
    .where(and(measuresOf(r), eq(m.kind, "suspension"), isNull(m.liftedAt), gt(m.endsAt, now)))
    .orderBy(desc(m.endsAt))
    .limit(1);
  return row ? { id: row.id, endsAt: row.endsAt! } : null;
}

/** Counts of a set of notices by outcome, as stats. */
function statsOf(rows: readonly { outcome: NoticeOutcome; n: number }[]): ReporterStats {
  return reporterStats(rows.flatMap((r) => Array<NoticeOutcome>(r.n).fill(r.outcome)));
}

/** Who the record is about, with their language and brand (for the mails). */
async function reporterIdentity(d1: D1Database, ref: { id: string } | { email: string }) {
  const db = getDb(d1);
  const { users, profiles, notices } = schema;
  if ("id" in ref) {
    const [u] = await db
      .select({
        id: users.id,
        email: users.email,
        name: profiles.name,
        language: users.language,
        brandId: users.brandId,
      })
      .from(users)
      .leftJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(users.id, ref.id));
    return u ? { ...u, language: langOf(u.language), visitor: false as const } : null;
  }
  // A visitor is known by their notices: their language and brand are those of the newest.
  const { moderationCases: cases } = schema;
  const [n] = await db
    .select({ language: notices.language, brandId: cases.brandId })
    .from(notices)
    .innerJoin(cases, eq(cases.id, notices.caseId))
    .where(and(isNull(notices.reporterId), eq(notices.reporterEmail, ref.email)))
    .orderBy(desc(notices.createdAt))
    .limit(1);
  return n
    ? {
        id: null,
        email: ref.email,
        name: null,
        language: langOf(n.language),
        brandId: n.brandId,
        visitor: true as const,
      }
    : null;
}

export const RECORD_NOTICES = 200;

/**
 * A reporter's record: every notice (newest first, up to RECORD_NOTICES) with its case and outcome,
 * the counts of all time and of the hint's window, whether the hint's threshold is crossed, the
 * measures, the running suspension and the notices set aside. One batch after the identity.
 */
export async function reporterRecord(d1: D1Database, ref: { id: string } | { email: string }, now = nowS()) {
  const who = await reporterIdentity(d1, ref);
  if (!who) return null;
  const r: ReporterRef = who.id ? { id: who.id, email: who.email } : { id: null, email: who.email };
  const db = getDb(d1);
  const { notices, moderationCases: cases, profiles, reporterMeasures: m, setAsideNotices: aside, operators } = schema;
  const outcome = outcomeSql();
  const since = now - REPORTER_HINT.days * DAY;
  const grouped = (recent: boolean) =>
    db
      .select({ outcome: outcome.as("outcome"), n: count() })
      .from(notices)
      .innerJoin(cases, eq(cases.id, notices.caseId))
      .where(and(noticesOf(r), recent ? gte(notices.createdAt, since) : undefined))
      .groupBy(sql`outcome`);
  const [list, all, recent, measures, setAside] = await db.batch([
    db
      .select({
        id: notices.id,
        caseId: notices.caseId,
        category: notices.category,
        createdAt: notices.createdAt,
        targetType: cases.targetType,
        memberName: profiles.name,
        outcome: outcome.as("outcome"),
      })
      .from(notices)
      .innerJoin(cases, eq(cases.id, notices.caseId))
      .leftJoin(profiles, eq(profiles.userId, cases.memberId))
      .where(noticesOf(r))
      .orderBy(desc(notices.createdAt), desc(notices.id))
      .limit(RECORD_NOTICES),
    grouped(false),
    grouped(true),
    db
      .select({ m, operator: sql<string | null>`${operators.email}`.as("operator") })
      .from(m)
      .leftJoin(operators, eq(operators.id, m.operatorId))
      .where(measuresOf(r))
      .orderBy(desc(m.startsAt)),
    db
      .select()
      .from(aside)
      .where(r.id ? eq(aside.reporterId, r.id) : and(isNull(aside.reporterId), eq(aside.reporterEmail, r.email)))
      .orderBy(desc(aside.createdAt))
      .limit(50),
  ]);
  const recentStats = statsOf(recent);
  const running = measures.find((x) => x.m.kind === "suspension" && !x.m.liftedAt && (x.m.endsAt ?? 0) > now)?.m;
  const warnedAt = latestWarning(
    measures.map((x) => x.m),
    now,
  );
  return {
    who,
    notices: list,
    all: statsOf(all),
    recent: recentStats,
    hint: crossesHint(recentStats),
    measures: measures.map((x) => ({ ...x.m, operator: x.operator })),
    suspension: running ? { id: running.id, endsAt: running.endsAt! } : null,
    warnedAt,
    setAside,
  };
}
export type ReporterRecord = NonNullable<Awaited<ReturnType<typeof reporterRecord>>>;

/** The newest warning still valid for a suspension (WARNING_VALID_DAYS), if any. */
function latestWarning(measures: readonly { kind: string; startsAt: number }[], now: number) {
  const w = measures
    .filter((x) => x.kind === "warning" && x.startsAt > now - WARNING_VALID_DAYS * DAY && x.startsAt <= now)
    .sort((a, b) => b.startsAt - a.startsAt)[0];
  return w?.startsAt ?? null;
}

/**
 * The summary a case shows beside each notice: the reporter's counts of all time and of the hint's
 * window, the hint, and a running suspension. One grouped read for all the case's reporters.
 */
export async function reporterSummaries(
  d1: D1Database,
  caseNotices: readonly { reporterId: string | null; reporterEmail: string | null }[],
  now = nowS(),
) {
  const ids = [...new Set(caseNotices.map((n) => n.reporterId).filter((x): x is string => !!x))].slice(0, 40);
  const emails = [
    ...new Set(caseNotices.filter((n) => !n.reporterId && n.reporterEmail).map((n) => n.reporterEmail!)),
  ].slice(0, 40);
  const out = new Map<
    string,
    { all: ReporterStats; recent: ReporterStats; hint: boolean; suspendedUntil: number | null }
  >();
  if (ids.length + emails.length === 0) return out;
  const db = getDb(d1);
  const { notices, moderationCases: cases, reporterMeasures: m } = schema;
  const who = sql<string>`coalesce(${notices.reporterId}, ${notices.reporterEmail})`;
  const inIds = ids.length
    ? sql`${notices.reporterId} IN (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )})`
    : sql`0`;
  const inEmails = emails.length
    ? sql`(${notices.reporterId} IS NULL AND ${notices.reporterEmail} IN (${sql.join(
        emails.map((e) => sql`${e}`),
        sql`, `,
      )}))`
    : sql`0`;
  const [rows, running] = await db.batch([
    db
      .select({
        who: who.as("who"),
        outcome: outcomeSql().as("outcome"),
        recent: sql<number>`${notices.createdAt} >= ${now - REPORTER_HINT.days * DAY}`.as("recent"),
        n: count(),
      })
      .from(notices)
      .innerJoin(cases, eq(cases.id, notices.caseId))
      .where(sql`${inIds} OR ${inEmails}`)
      .groupBy(sql`who`, sql`outcome`, sql`recent`),
    db
      .select({ reporterId: m.reporterId, reporterEmail: m.reporterEmail, endsAt: m.endsAt })
      .from(m)
      .where(
        and(
          eq(m.kind, "suspension"),
          isNull(m.liftedAt),
          gt(m.endsAt, now),
          sql`(${m.reporterId} IN (${sql.join(
            [...ids, ""].map((i) => sql`${i}`),
            sql`, `,
          )}) OR ${m.reporterEmail} IN (${sql.join(
            [...emails, ""].map((e) => sql`${e}`),
            sql`, `,
          )}))`,
        ),
      ),
  ]);
  for (const key of [...ids, ...emails]) {
    const mine = rows.filter((x) => x.who === key);
    const recent = statsOf(mine.filter((x) => x.recent));
    const until = running
      .filter((x) => x.reporterId === key || (!ids.includes(key) && x.reporterEmail === key))
      .reduce<number | null>((a, x) => Math.max(a ?? 0, x.endsAt ?? 0), null);
    out.set(key, { all: statsOf(mine), recent, hint: crossesHint(recent), suspendedUntil: until });
  }
  return out;
}

type MeasureEnv = Pick<Env, "DB" | "ENVIRONMENT" | "MAIL" | "MAIL_FROM" | "MAIL_TRANSPORT" | "MAIL_API_KEY">;
type Origin = (brandDomain: string) => string;

/** The reporter's brand (its name and link) for a measure's mail. */
async function brandOf(d1: D1Database, brandId: number) {
  const { brands } = schema;
  const [b] = await getDb(d1)
    .select({ id: brands.id, name: brands.name, domain: brands.domain })
    .from(brands)
    .where(eq(brands.id, brandId));
  return b ?? null;
}

/** Mails a measure to the reporter in their language: what, why, until when, and how to complain. */
async function mailMeasure(
  env: MeasureEnv,
  who: ReporterRecord["who"],
  kind: "warning" | "suspension" | "lifted",
  vars: { reason: string; until?: number; days?: number },
  origin: Origin,
) {
  const brand = await brandOf(env.DB, who.brandId);
  if (!brand) return;
  const t = await getFixedT(who.language as never, "safety");
  const v = {
    brand: brand.name,
    reason: vars.reason,
    days: vars.days ?? 0,
    until: vars.until ? decisionDate(who.language, vars.until) : "",
  };
  const body = [
    t(`reporter.${kind}.body`, v),
    ...(kind === "lifted" ? [] : [t("reporter.reason", v)]),
    ...(kind === "suspension" ? [t("reporter.suspension.still")] : []),
    ...(kind === "lifted" ? [] : [t("reporter.complain"), t("redress")]),
  ].join("\n\n");
  const { text, html } = renderMail({
    greeting: who.name ? t("mail.greeting", { name: who.name }) : t("mail.greetingVisitor"),
    body,
    action: t(kind === "lifted" ? "mail.received.action" : "reporter.complainAction"),
    link: `${origin(brand.domain)}${kind === "lifted" ? "/pages/terms" : "/complaints"}`,
    footer: [t("mail.footer", v)],
  });
  await mailerFor(env).send({
    brandId: brand.id,
    to: who.email,
    subject: t(`reporter.${kind}.subject`, v),
    text,
    html,
    fromName: brand.name,
  });
}

export type MeasureResult = { ok: true } | { ok: false; error: string };

/** Warns a reporter (the step Art. 23 requires before a suspension), audited, mailed. */
export async function warnReporter(
  env: MeasureEnv,
  actor: Actor,
  record: ReporterRecord,
  reason: string,
  o: { origin: Origin; now?: number },
): Promise<MeasureResult> {
  const now = o.now ?? nowS();
  const db = getDb(env.DB);
  const id = randomId();
  const who = record.who;
  await db.batch([
    db.insert(schema.reporterMeasures).values({
      id,
      kind: "warning",
      reporterId: who.id,
      reporterEmail: who.email,
      reason,
      startsAt: now,
      operatorId: actor.id,
    }),
    auditAfterChange(
      db,
      actor,
      {
        action: "reporter.warn",
        targetType: "reporter",
        targetId: who.id ?? who.email,
        reason,
        after: { measure: id, recent: record.recent },
      },
      now,
    ),
  ]);
  await mailMeasure(env, who, "warning", { reason }, o.origin);
  return { ok: true };
}

/**
 * Suspends the processing of a reporter's notices for `days` (REPORTER_SUSPENSION_DAYS), only after
 * a warning within WARNING_VALID_DAYS and while none runs: both guarded in the INSERT itself, so two
 * moderators at once make one. Audited in the batch, mailed with the reason, the end and redress.
 */
export async function suspendReporter(
  env: MeasureEnv,
  actor: Actor,
  record: ReporterRecord,
  input: { days: number; reason: string },
  o: { origin: Origin; now?: number },
): Promise<MeasureResult> {
  const now = o.now ?? nowS();
  const days = Math.min(Math.max(Math.trunc(input.days), REPORTER_SUSPENSION_DAYS.min), REPORTER_SUSPENSION_DAYS.max);
  const endsAt = now + days * DAY;
  const who = record.who;
  const r: ReporterRef = who.id ? { id: who.id, email: who.email } : { id: null, email: who.email };
  const db = getDb(env.DB);
  const { reporterMeasures: m } = schema;
  const id = randomId();
  const [made] = await db.batch([
    db.insert(m)
      .select(sql`SELECT ${id}, 'suspension', ${who.id}, ${who.email}, ${input.reason}, ${days}, ${now}, ${endsAt},
      ${actor.id}, NULL, NULL, NULL
      WHERE EXISTS (SELECT 1 FROM ${m} WHERE ${measuresOf(r)} AND ${m.kind} = 'warning'
          AND ${m.startsAt} > ${now - WARNING_VALID_DAYS * DAY} AND ${m.startsAt} <= ${now})
        AND NOT EXISTS (SELECT 1 FROM ${m} WHERE ${measuresOf(r)} AND ${m.kind} = 'suspension'
          AND ${m.liftedAt} IS NULL AND ${m.endsAt} > ${now})`),
    auditAfterChange(
      db,
      actor,
      {
        action: "reporter.suspend",
        targetType: "reporter",
        targetId: who.id ?? who.email,
        reason: input.reason,
        after: { measure: id, days, endsAt, recent: record.recent },
      },
      now,
    ),
  ]);
  if ((made.meta.changes ?? 0) !== 1)
    return {
      ok: false,
      error: record.suspension
        ? "The processing of this reporter's notices is already suspended."
        : "Warn the reporter first: a suspension needs a warning within the last year.",
    };
  await mailMeasure(env, who, "suspension", { reason: input.reason, until: endsAt, days }, o.origin);
  return { ok: true };
}

/** Lifts a running suspension before its end, guarded and audited; the reporter is told. */
export async function liftReporterSuspension(
  env: MeasureEnv,
  actor: Actor,
  record: ReporterRecord,
  reason: string,
  o: { origin: Origin; now?: number },
): Promise<MeasureResult> {
  const now = o.now ?? nowS();
  if (!record.suspension) return { ok: false, error: "No suspension is running." };
  const db = getDb(env.DB);
  const { reporterMeasures: m } = schema;
  const who = record.who;
  const [lifted] = await db.batch([
    db
      .update(m)
      .set({ liftedAt: now, liftedBy: actor.id, liftReason: reason })
      .where(and(eq(m.id, record.suspension.id), isNull(m.liftedAt), gt(m.endsAt, now))),
    auditAfterChange(
      db,
      actor,
      {
        action: "reporter.lift",
        targetType: "reporter",
        targetId: who.id ?? who.email,
        reason,
        before: { measure: record.suspension.id, endsAt: record.suspension.endsAt },
      },
      now,
    ),
  ]);
  if ((lifted.meta.changes ?? 0) !== 1) return { ok: false, error: "No suspension is running." };
  await mailMeasure(env, who, "lifted", { reason }, o.origin);
  return { ok: true };
}
