/**
 * The moderation queue (decision 167): open cases, most severe first (minor, non-consensual
 * imagery), then oldest; one case with its notices, the member's earlier decisions and, for a
 * message, the ten messages before and after it (opened through an audited POST only).
 */
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, lte, min, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { getDb, schema, type Db } from "../../../db/client";
import { REPORT_CATEGORIES } from "../../../db/schema";
import { auditAfterChange, auditStatement, type Actor } from "./audit.server";
import type { Env } from "~/lib/env";
import { roomStub } from "~/chat/stubs";

export const QUEUE_PAGE = 100;

/** What the shared queue shows (decision 218): every filter optional, open cases by default. */
export type QueueFilter = {
  status: "open" | "closed" | "all";
  /** A case id, a member's e-mail address, or the start of a display name. */
  q: string;
  brandId: number | null;
  category: (typeof REPORT_CATEGORIES)[number] | null;
  /** Open (or opened) at least this many days ago. */
  olderThanDays: number | null;
  assigned: "any" | "mine" | "unassigned";
};
export const QUEUE_AGES = [1, 3, 7, 30] as const;

/** Reads the queue's filters from the page's query string; anything unknown falls back to its default. */
export function parseQueueFilter(params: URLSearchParams): QueueFilter {
  const status = params.get("status");
  const category = params.get("category") ?? "";
  const brand = Number(params.get("brand"));
  const age = Number(params.get("age"));
  const assigned = params.get("assigned");
  return {
    status: status === "closed" || status === "all" ? status : "open",
    q: (params.get("q") ?? "").trim().slice(0, 100),
    brandId: Number.isInteger(brand) && brand > 0 ? brand : null,
    category: (REPORT_CATEGORIES as readonly string[]).includes(category)
      ? (category as QueueFilter["category"])
      : null,
    olderThanDays: (QUEUE_AGES as readonly number[]).includes(age) ? age : null,
    assigned: assigned === "mine" || assigned === "unassigned" ? assigned : "any",
  };
}

/** The queue's query: each filter narrows the indexed (brand | assignee, status, severity, opened_at) order. */
export function queueQuery(db: Db, f: QueueFilter, operatorId: string, now: number) {
  const { moderationCases: cases, notices, profiles, users, brands, operators } = schema;
  const q = f.q;
  const search = !q
    ? undefined
    : q.includes("@")
      ? eq(users.email, q.toLowerCase())
      : or(eq(cases.id, q), and(gte(profiles.name, q), lt(profiles.name, `${q}\uffff`)));
  return db
    .select({
      id: cases.id,
      targetType: cases.targetType,
      memberId: cases.memberId,
      severity: cases.severity,
      status: cases.status,
      openedAt: cases.openedAt,
      closedAt: cases.closedAt,
      flaggedBy: cases.flaggedBy,
      name: profiles.name,
      brand: sql<string | null>`${brands.name}`.as("brand"),
      assignee: sql<string | null>`${operators.name}`.as("assignee"),
      notices: sql<number>`(SELECT count(*) FROM ${notices} WHERE ${notices.caseId} = ${cases.id})`,
    })
    .from(cases)
    .leftJoin(profiles, eq(profiles.userId, cases.memberId))
    .leftJoin(brands, eq(brands.id, cases.brandId))
    .leftJoin(operators, eq(operators.id, cases.assignedTo))
    .leftJoin(users, eq(users.id, cases.memberId))
    .where(
      and(
        f.status === "all" ? undefined : eq(cases.status, f.status),
        f.brandId ? eq(cases.brandId, f.brandId) : undefined,
        f.category ? eq(cases.severity, REPORT_CATEGORIES.indexOf(f.category)) : undefined,
        f.olderThanDays ? lte(cases.openedAt, now - f.olderThanDays * 86_400) : undefined,
        f.assigned === "mine"
          ? eq(cases.assignedTo, operatorId)
          : f.assigned === "unassigned"
            ? isNull(cases.assignedTo)
            : undefined,
        search,
      ),
    )
    .orderBy(
      ...(f.status === "open" ? [asc(cases.severity), asc(cases.openedAt)] : [desc(cases.openedAt), desc(cases.id)]),
    )
    .limit(QUEUE_PAGE);
}

/** The queue (filtered), the open cases' count and the oldest open case's age, in one batch. */
export async function listCases(d1: D1Database, f: QueueFilter, operatorId: string, now: number) {
  const db = getDb(d1);
  const { moderationCases: cases, brands } = schema;
  const [rows, [oldest], brandList] = await db.batch([
    queueQuery(db, f, operatorId, now),
    db
      .select({ oldest: min(cases.openedAt), open: count() })
      .from(cases)
      .where(eq(cases.status, "open")),
    db.select({ id: brands.id, name: brands.name }).from(brands).orderBy(asc(brands.name)),
  ]);
  return {
    cases: rows.map((r) => ({ ...r, category: REPORT_CATEGORIES[r.severity] ?? "other" })),
    oldestAt: oldest?.oldest ?? null,
    open: oldest?.open ?? 0,
    brands: brandList,
  };
}

/** Takes a case (or gives it back), audited; a closed case keeps whoever had it. */
export async function assignCase(d1: D1Database, actor: Actor, caseId: string, take: boolean) {
  const db = getDb(d1);
  const { moderationCases: cases } = schema;
  await db.batch([
    db
      .update(cases)
      .set({ assignedTo: take ? actor.id : null })
      .where(and(eq(cases.id, caseId), eq(cases.status, "open"))),
    auditAfterChange(db, actor, {
      action: take ? "case.assign" : "case.unassign",
      targetType: "case",
      targetId: caseId,
    }),
  ]);
}

export async function caseDetail(d1: D1Database, caseId: string) {
  const db = getDb(d1);
  const {
    moderationCases: cases,
    notices,
    profiles,
    users,
    decisions,
    caseFlags,
    dsaSubmissions,
    brands,
    operators,
  } = schema;
  const reporter = alias(profiles, "reporter");
  const [[c], list, earlier, flags] = await db.batch([
    // Aliased: in a D1 batch rows come back keyed by column name, and cases.status would hide profiles.status.
    db
      .select({
        c: cases,
        name: profiles.name,
        email: users.email,
        aboutMe: profiles.aboutMe,
        profileStatus: sql<string>`${profiles.status}`.as("profile_status"),
        suspendedUntil: users.suspendedUntil,
        messagingRestrictedUntil: users.messagingRestrictedUntil,
        // The statement goes out in the member's language: the moderator writes the facts in it (decision 219).
        language: users.language,
        brandName: sql<string>`${brands.name}`.as("brand_name"),
        assignee: sql<string | null>`${operators.name}`.as("assignee"),
      })
      .from(cases)
      .innerJoin(users, eq(users.id, cases.memberId))
      .innerJoin(profiles, eq(profiles.userId, cases.memberId))
      .leftJoin(brands, eq(brands.id, cases.brandId))
      .leftJoin(operators, eq(operators.id, cases.assignedTo))
      .where(eq(cases.id, caseId)),
    // Reporters are known to moderators (decision 218), never to the reported member.
    db
      .select({ n: notices, reporterName: sql<string | null>`${reporter.name}`.as("reporter_name") })
      .from(notices)
      .leftJoin(reporter, eq(reporter.userId, notices.reporterId))
      .where(eq(notices.caseId, caseId))
      .orderBy(asc(notices.id)),
    db
      .select({
        d: decisions,
        dsaStatus: sql<string | null>`${dsaSubmissions.status}`.as("dsa_status"),
        dsaError: sql<string | null>`${dsaSubmissions.error}`.as("dsa_error"),
        dsaUuid: dsaSubmissions.uuid,
        dsaAttempts: dsaSubmissions.attempts,
      })
      .from(decisions)
      .leftJoin(dsaSubmissions, eq(dsaSubmissions.decisionId, decisions.id))
      .where(sql`${decisions.memberId} = (SELECT ${cases.memberId} FROM ${cases} WHERE ${cases.id} = ${caseId})`)
      .orderBy(desc(decisions.createdAt))
      .limit(20),
    // The automated rules that fired on it (decision 176).
    db
      .select({ rule: caseFlags.rule, detail: caseFlags.detail, createdAt: caseFlags.createdAt })
      .from(caseFlags)
      .where(eq(caseFlags.caseId, caseId))
      .orderBy(asc(caseFlags.id)),
  ]);
  if (!c) return null;
  const noticeList = list.map((r) => ({ ...r.n, reporterName: r.reporterName }));
  const content = await caseContent(d1, c.c, noticeList);
  return {
    ...c,
    notices: noticeList,
    earlier: earlier.map((r) => ({
      ...r.d,
      dsa: r.dsaStatus ? { status: r.dsaStatus, error: r.dsaError, uuid: r.dsaUuid, attempts: r.dsaAttempts } : null,
    })),
    flags,
    ...content,
  };
}

/** Categories whose photos are blurred in the console until the moderator asks to see them. */
export const BLURRED_CATEGORIES: readonly string[] = ["minor", "ncii"];

/**
 * What a case is about, for the moderator to see (the reported photo, or the profile's photos and
 * texts; a message is opened through the audited excerpt). A photo removed by a decision may be held
 * for its appeal window (decision 174): the console shows it from there. `blurred` when the case or
 * one of its notices is about a minor or non-consensual imagery.
 */
export async function caseContent(
  d1: D1Database,
  c: { targetType: "member" | "photo" | "message"; targetId: string; memberId: string; severity: number },
  caseNotices: readonly { category: string }[],
) {
  const db = getDb(d1);
  const { photos, heldPhotos } = schema;
  const blurred =
    BLURRED_CATEGORIES.includes(REPORT_CATEGORIES[c.severity] ?? "other") ||
    caseNotices.some((n) => BLURRED_CATEGORIES.includes(n.category));
  const photoCols = { id: photos.id, isPrivate: photos.isPrivate, review: photos.review };
  if (c.targetType === "photo") {
    const [[live], [held]] = await db.batch([
      db.select(photoCols).from(photos).where(eq(photos.id, c.targetId)),
      db
        .select({ id: heldPhotos.id, isPrivate: heldPhotos.isPrivate })
        .from(heldPhotos)
        .where(eq(heldPhotos.id, c.targetId)),
    ]);
    const photo = live ? { ...live, held: false } : held ? { ...held, review: "held" as const, held: true } : null;
    return { photo, profilePhotos: [], blurred };
  }
  if (c.targetType === "member") {
    // Every photo of the profile, private and pending ones included: a fake profile shows in its photos.
    const profilePhotos = await db
      .select(photoCols)
      .from(photos)
      .where(eq(photos.userId, c.memberId))
      .orderBy(asc(photos.createdAt), asc(photos.id))
      .limit(50);
    return { photo: null, profilePhotos: profilePhotos.map((p) => ({ ...p, held: false })), blurred };
  }
  return { photo: null, profilePhotos: [], blurred };
}
export type CasePhoto = { id: string; isPrivate: boolean; review: string; held: boolean };

/**
 * The reported message with the ten before and after it, and the audit row saying who opened it,
 * in one batch: operators read no other part of a conversation.
 */
export async function messageExcerpt(
  env: Pick<Env, "DB" | "CHAT_ROOM">,
  actor: Actor,
  caseId: string,
  target: { conversationId: string; seq: number },
) {
  const db = getDb(env.DB);
  const { profiles } = schema;
  // Who opened it is recorded first, whatever the conversation's object answers.
  await auditStatement(db, actor, {
    action: "case.view_messages",
    targetType: "case",
    targetId: caseId,
    after: { conversation: target.conversationId, seq: target.seq },
  });
  // The messages live in the conversation's object (decision 190); the names in D1.
  const list = await roomStub(env, target.conversationId).excerpt(target.conversationId, target.seq, 10);
  const ids = [...new Set(list.map((m) => m.senderId))];
  const names = ids.length
    ? await db
        .select({ userId: profiles.userId, name: profiles.name })
        .from(profiles)
        .where(inArray(profiles.userId, ids))
    : [];
  return list.map((m) => ({
    seq: m.id,
    senderId: m.senderId,
    name: names.find((n) => n.userId === m.senderId)?.name ?? null,
    body: m.body,
    kind: m.kind,
    createdAt: m.createdAt,
  }));
}

/** A moderator unblurred the photos of a case or appeal about a minor or intimate imagery: logged. */
export function revealPhotos(d1: D1Database, actor: Actor, target: { type: "case" | "appeal"; id: string }) {
  return auditStatement(getDb(d1), actor, {
    action: `${target.type}.view_photo`,
    targetType: target.type,
    targetId: target.id,
  });
}
