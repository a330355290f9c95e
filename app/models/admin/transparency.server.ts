/**
 * Transparency (decision 176): per month, the notices by category, the decisions by
 * ground (illegal content or the terms) and category, the median time from the first notice to the
 * decision, appeals and reversals, the automated flags by rule; and the month's statements of
 * reasons as JSON in the fields of the EU DSA Transparency Database's statement schema (Art. 24(5)),
 * ready for its API's multi-statement submission. The export is audited.
 */
import { and, asc, count, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { getDb, schema } from "../../../db/client";
import { FLAG_RULES, REPORT_CATEGORIES, type FlagRule, type ReportCategory } from "../../../db/schema";
import { auditStatement, type Actor } from "./audit.server";
import { EEA_COUNTRIES, LEGAL_GROUNDS, isLegalGround, type DsaStatement } from "../dsa-database";

export type { DsaStatement };

/** How many months the report shows, the current one included. */
export const REPORT_MONTHS = 12;

/** Sections of the terms whose breach is also illegal content (minors, non-consensual imagery, the law). */
const ILLEGAL_RULES = new Set(["age", "consent", "illegal"]);
export type Ground = "illegal" | "terms";
export const groundOf = (rule: string): Ground => (ILLEGAL_RULES.has(rule) ? "illegal" : "terms");

/** Our report categories in the Transparency Database's categories and keywords. */
const DSA_CATEGORY: Record<ReportCategory, { category: string; keywords: string[] }> = {
  minor: {
    category: "STATEMENT_CATEGORY_PROTECTION_OF_MINORS",
    keywords: ["KEYWORD_AGE_SPECIFIC_RESTRICTIONS_MINORS"],
  },
  ncii: { category: "STATEMENT_CATEGORY_CYBER_VIOLENCE", keywords: ["KEYWORD_NON_CONSENSUAL_IMAGE_SHARING"] },
  illegal: { category: "STATEMENT_CATEGORY_ILLEGAL_OR_HARMFUL_SPEECH", keywords: [] },
  scam: { category: "STATEMENT_CATEGORY_SCAMS_AND_FRAUD", keywords: [] },
  harassment: { category: "STATEMENT_CATEGORY_CYBER_VIOLENCE", keywords: ["KEYWORD_CYBER_HARASSMENT"] },
  fake: { category: "STATEMENT_CATEGORY_SCAMS_AND_FRAUD", keywords: ["KEYWORD_INAUTHENTIC_ACCOUNTS"] },
  spam: { category: "STATEMENT_CATEGORY_OTHER_VIOLATION_TC", keywords: [] },
  other: { category: "STATEMENT_CATEGORY_OTHER_VIOLATION_TC", keywords: [] },
};
const categoryOf = (severity: number): ReportCategory => REPORT_CATEGORIES[severity] ?? "other";

/** "2026-11" → [start, end) in Unix seconds (UTC); null for anything else. */
export function monthRange(month: string): [number, number] | null {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]) - 1;
  return [Date.UTC(y, mo, 1) / 1000, Date.UTC(y, mo + 1, 1) / 1000];
}
export const monthOf = (at: number) => new Date(at * 1000).toISOString().slice(0, 7);
/** The REPORT_MONTHS months up to the one of `now`, newest first. */
export function lastMonths(now: number): string[] {
  const d = new Date(now * 1000);
  return Array.from({ length: REPORT_MONTHS }, (_, i) =>
    new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - i, 1)).toISOString().slice(0, 7),
  );
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : Math.round((s[mid - 1]! + s[mid]!) / 2);
}

/** Appeals lodged (by the month they came in) and decisions reversed on appeal (by the month decided). */
export async function appealsByMonth(
  d1: D1Database,
  from: number,
): Promise<Map<string, { appeals: number; reversals: number }>> {
  const db = getDb(d1);
  const { appeals } = schema;
  const month = (column: SQLiteColumn) => sql<string>`strftime('%Y-%m', ${column}, 'unixepoch')`;
  const [lodged, reversed] = await db.batch([
    db
      .select({ month: month(appeals.createdAt), n: count() })
      .from(appeals)
      .where(gte(appeals.createdAt, from))
      .groupBy(sql`1`),
    db
      .select({ month: month(appeals.decidedAt), n: count() })
      .from(appeals)
      .where(and(eq(appeals.status, "reversed"), gte(appeals.decidedAt, from)))
      .groupBy(sql`1`),
  ]);
  const out = new Map<string, { appeals: number; reversals: number }>();
  const at = (m: string) => out.get(m) ?? out.set(m, { appeals: 0, reversals: 0 }).get(m)!;
  for (const r of lodged) at(r.month).appeals = r.n;
  for (const r of reversed) at(r.month).reversals = r.n;
  return out;
}

export type MonthFigures = {
  month: string;
  notices: number;
  noticesByCategory: Partial<Record<ReportCategory, number>>;
  decisions: number;
  /** Category → counts by ground; "none" is a decision to take no action. */
  decisionsByCategory: Partial<Record<ReportCategory, { illegal: number; terms: number; none: number }>>;
  automated: number;
  /** Seconds from a case's first notice (or its flag) to its decision. */
  medianSeconds: number | null;
  appeals: number;
  reversals: number;
  flags: number;
  flagsByRule: Partial<Record<FlagRule, number>>;
};

/** The report: every month of the last REPORT_MONTHS, newest first, in one batch of indexed reads. */
export async function transparencyReport(d1: D1Database, now: number): Promise<MonthFigures[]> {
  const months = lastMonths(now);
  const from = monthRange(months[months.length - 1]!)![0];
  const db = getDb(d1);
  const { notices, decisions, moderationCases: cases, caseFlags } = schema;
  const month = (column: SQLiteColumn) => sql<string>`strftime('%Y-%m', ${column}, 'unixepoch')`;
  const [noticeRows, decisionRows, flagRows] = await db.batch([
    db
      .select({ month: month(notices.createdAt), category: notices.category, n: count() })
      .from(notices)
      .where(gte(notices.createdAt, from))
      .groupBy(sql`1`, notices.category),
    db
      .select({
        month: month(decisions.createdAt),
        action: decisions.action,
        rule: decisions.rule,
        automated: decisions.automatedDetection,
        severity: cases.severity,
        seconds: sql<number>`${decisions.createdAt} - coalesce((SELECT min(${notices.createdAt}) FROM ${notices}
          WHERE ${notices.caseId} = ${decisions.caseId}), ${cases.openedAt})`,
      })
      .from(decisions)
      .innerJoin(cases, eq(cases.id, decisions.caseId))
      .where(gte(decisions.createdAt, from)),
    db
      .select({ month: month(caseFlags.createdAt), rule: caseFlags.rule, n: count() })
      .from(caseFlags)
      .where(gte(caseFlags.createdAt, from))
      .groupBy(sql`1`, caseFlags.rule),
  ]);
  const appeals = await appealsByMonth(d1, from);
  const byMonth = new Map<string, MonthFigures>(
    months.map((m) => [
      m,
      {
        month: m,
        notices: 0,
        noticesByCategory: {},
        decisions: 0,
        decisionsByCategory: {},
        automated: 0,
        medianSeconds: null,
        appeals: appeals.get(m)?.appeals ?? 0,
        reversals: appeals.get(m)?.reversals ?? 0,
        flags: 0,
        flagsByRule: {},
      },
    ]),
  );
  for (const r of noticeRows) {
    const f = byMonth.get(r.month);
    if (!f) continue;
    f.notices += r.n;
    f.noticesByCategory[r.category] = (f.noticesByCategory[r.category] ?? 0) + r.n;
  }
  const seconds = new Map<string, number[]>();
  for (const r of decisionRows) {
    const f = byMonth.get(r.month);
    if (!f) continue;
    f.decisions += 1;
    if (r.automated) f.automated += 1;
    const c = (f.decisionsByCategory[categoryOf(r.severity)] ??= { illegal: 0, terms: 0, none: 0 });
    c[r.action === "no_action" ? "none" : groundOf(r.rule)] += 1;
    seconds.set(r.month, [...(seconds.get(r.month) ?? []), Math.max(0, r.seconds)]);
  }
  for (const [m, list] of seconds) byMonth.get(m)!.medianSeconds = median(list);
  for (const r of flagRows) {
    const f = byMonth.get(r.month);
    if (!f || !(FLAG_RULES as readonly string[]).includes(r.rule)) continue;
    f.flags += r.n;
    f.flagsByRule[r.rule] = r.n;
  }
  return months.map((m) => byMonth.get(m)!);
}

// ---------------------------------------------------------------------------------------------
// The Transparency Database export

const day = (at: number) => new Date(at * 1000).toISOString().slice(0, 10);

/** The public facts of a decision taken before they were written apart (no personal data). */
const ACTION_FACTS: Record<string, string> = {
  remove_photo: "A photo was removed",
  remove_profile_text: "A profile text was removed",
  remove_message: "A message was removed",
  reset_name: "A display name was reset",
  restrict_messaging: "Messaging was restricted",
  suspend: "The account was suspended",
  ban: "The account was terminated",
};

/** Which restriction an action is, in the database's four kinds. */
function restrictionOf(action: string, endsAt: number | null) {
  const until = endsAt ? day(endsAt) : null;
  switch (action) {
    case "remove_photo":
    case "remove_profile_text":
    case "remove_message":
    case "reset_name":
      return { decision_visibility: ["DECISION_VISIBILITY_CONTENT_REMOVED"], end_date_visibility_restriction: null };
    case "suspend":
      return { decision_account: "DECISION_ACCOUNT_SUSPENDED", end_date_account_restriction: until };
    case "ban":
      return { decision_account: "DECISION_ACCOUNT_TERMINATED", end_date_account_restriction: null };
    default:
      // Any other restriction (e.g. of messaging for N days) limits part of the service.
      return { decision_provision: "DECISION_PROVISION_PARTIAL_SUSPENSION", end_date_service_restriction: until };
  }
}

function contentTypeOf(
  targetType: string,
  action: string,
): { content_type: string[]; content_type_other: string | null } {
  if (targetType === "photo" || action === "remove_photo")
    return { content_type: ["CONTENT_TYPE_IMAGE"], content_type_other: null };
  if (targetType === "message" || action === "remove_profile_text" || action === "reset_name")
    return { content_type: ["CONTENT_TYPE_TEXT"], content_type_other: null };
  return { content_type: ["CONTENT_TYPE_OTHER"], content_type_other: "Member profile" };
}

/** The rows statements are made of (the month's export, or one decision for its submission). */
function statementRows(db: ReturnType<typeof getDb>, where: SQL | undefined) {
  const { decisions, moderationCases: cases, users, brands, notices, photos } = schema;
  return db
    .select({
      id: decisions.id,
      action: decisions.action,
      rule: decisions.rule,
      publicFacts: decisions.publicFacts,
      legalGround: decisions.legalGround,
      endsAt: decisions.endsAt,
      automated: decisions.automatedDetection,
      createdAt: decisions.createdAt,
      targetType: cases.targetType,
      severity: cases.severity,
      // When the content was posted: the profile's account, the photo's upload; a message's report at the latest.
      contentAt: sql<number>`CASE ${cases.targetType} WHEN 'member' THEN ${users.createdAt}
          ELSE coalesce((SELECT ${photos.createdAt} FROM ${photos} WHERE ${photos.id} = ${cases.targetId}), ${cases.openedAt}) END`,
      noticed: sql<number>`EXISTS (SELECT 1 FROM ${notices} WHERE ${notices.caseId} = ${cases.id})`,
      language: users.language,
      domain: brands.domain,
      countries: brands.countries,
    })
    .from(decisions)
    .innerJoin(cases, eq(cases.id, decisions.caseId))
    .innerJoin(users, eq(users.id, decisions.memberId))
    .innerJoin(brands, eq(brands.id, users.brandId))
    .where(and(where, sql`${decisions.action} != 'no_action'`))
    .orderBy(asc(decisions.createdAt), asc(decisions.id));
}
type StatementRow = Awaited<ReturnType<typeof statementRows>>[number];

/** One decision as a statement in the database's fields. */
function toStatement(r: StatementRow, ruleLabel: (rule: string) => string): DsaStatement {
  // Illegal content names the legal provision chosen; a decision without one (taken before the
  // choice existed) is published on its terms ground, marked as considered illegal.
  const provision = isLegalGround(r.legalGround) ? LEGAL_GROUNDS[r.legalGround].text : null;
  const illegal = groundOf(r.rule) === "illegal" && provision !== null;
  const { category, keywords } = DSA_CATEGORY[categoryOf(r.severity)];
  // The public facts, never the member's statement text (DSA Art. 24(5)); older decisions without
  // them say only what was decided.
  const facts = r.publicFacts || `${ACTION_FACTS[r.action] ?? "Restriction"} after a review by a moderator.`;
  const scope = r.countries.filter((c) => (EEA_COUNTRIES as readonly string[]).includes(c));
  return {
    puid: r.id,
    decision_visibility: null,
    decision_monetary: null,
    decision_provision: null,
    decision_account: null,
    end_date_account_restriction: null,
    end_date_visibility_restriction: null,
    end_date_service_restriction: null,
    ...restrictionOf(r.action, r.endsAt),
    account_type: "ACCOUNT_TYPE_PRIVATE",
    decision_ground: illegal ? "DECISION_GROUND_ILLEGAL_CONTENT" : "DECISION_GROUND_INCOMPATIBLE_CONTENT",
    decision_ground_reference_url: `https://${r.domain}/pages/terms`,
    illegal_content_legal_ground: illegal ? provision : null,
    illegal_content_explanation: illegal ? facts : null,
    incompatible_content_ground: illegal ? null : ruleLabel(r.rule),
    incompatible_content_explanation: illegal ? null : facts,
    incompatible_content_illegal: illegal ? null : groundOf(r.rule) === "illegal" ? "Yes" : "No",
    category,
    category_specification: keywords,
    ...contentTypeOf(r.targetType, r.action),
    content_language: r.language.toUpperCase(),
    content_date: day(r.contentAt),
    application_date: day(r.createdAt),
    decision_facts: facts,
    source_type: r.noticed ? "SOURCE_ARTICLE_16" : "SOURCE_VOLUNTARY",
    automated_detection: r.automated ? "Yes" : "No",
    // Never automated: an operator takes every decision (decision 176).
    automated_decision: "AUTOMATED_DECISION_NOT_AUTOMATED",
    // Only EU and EEA member states are accepted (a brand may also serve CH, GB…).
    territorial_scope: scope.length > 0 ? scope : null,
  };
}

/** The statement of one decision (null for "no action", which is no statement), for its submission. */
export async function statementOfDecision(
  d1: D1Database,
  decisionId: string,
  ruleLabel: (rule: string) => string,
): Promise<DsaStatement | null> {
  const [row] = await statementRows(getDb(d1), eq(schema.decisions.id, decisionId));
  return row ? toStatement(row, ruleLabel) : null;
}

/**
 * The month's statements of reasons (every decision that restricted something; "no action" is not
 * a statement) in the database's fields, and the audit row of the export, in one batch.
 */
export async function exportStatements(
  d1: D1Database,
  actor: Actor,
  month: string,
  ruleLabel: (rule: string) => string,
): Promise<{ statements: DsaStatement[] } | null> {
  const range = monthRange(month);
  if (!range) return null;
  const db = getDb(d1);
  const { decisions } = schema;
  const [rows] = await db.batch([
    statementRows(db, and(gte(decisions.createdAt, range[0]), lt(decisions.createdAt, range[1]))),
    auditStatement(db, actor, { action: "transparency.export", targetType: "month", targetId: month }),
  ]);
  return { statements: rows.map((r) => toStatement(r, ruleLabel)) };
}
