/**
 * The moderation queue (decision 167): open cases, most severe first (minor, non-consensual
 * imagery), then oldest; one case with its notices, the member's earlier decisions and, for a
 * message, the ten messages before and after it (opened through an audited POST only).
 */
import { asc, count, desc, eq, inArray, min, sql } from "drizzle-orm";
import { getDb, schema } from "../../../db/client";
import { REPORT_CATEGORIES } from "../../../db/schema";
import { auditStatement, type Actor } from "./audit.server";
import type { Env } from "~/lib/env";
import { roomStub } from "~/chat/stubs";

export const QUEUE_PAGE = 100;

export async function openCases(d1: D1Database) {
  const db = getDb(d1);
  const { moderationCases: cases, notices, profiles } = schema;
  const [rows, [oldest]] = await db.batch([
    db
      .select({
        id: cases.id,
        targetType: cases.targetType,
        memberId: cases.memberId,
        severity: cases.severity,
        openedAt: cases.openedAt,
        flaggedBy: cases.flaggedBy,
        name: profiles.name,
        notices: sql<number>`(SELECT count(*) FROM ${notices} WHERE ${notices.caseId} = ${cases.id})`,
      })
      .from(cases)
      .leftJoin(profiles, eq(profiles.userId, cases.memberId))
      .where(eq(cases.status, "open"))
      .orderBy(asc(cases.severity), asc(cases.openedAt))
      .limit(QUEUE_PAGE),
    db
      .select({ oldest: min(cases.openedAt), open: count() })
      .from(cases)
      .where(eq(cases.status, "open")),
  ]);
  return {
    cases: rows.map((r) => ({ ...r, category: REPORT_CATEGORIES[r.severity] ?? "other" })),
    oldestAt: oldest?.oldest ?? null,
    open: oldest?.open ?? 0,
  };
}

export async function caseDetail(d1: D1Database, caseId: string) {
  const db = getDb(d1);
  const { moderationCases: cases, notices, profiles, users, decisions, caseFlags } = schema;
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
      })
      .from(cases)
      .innerJoin(users, eq(users.id, cases.memberId))
      .innerJoin(profiles, eq(profiles.userId, cases.memberId))
      .where(eq(cases.id, caseId)),
    db.select().from(notices).where(eq(notices.caseId, caseId)).orderBy(asc(notices.id)),
    db
      .select()
      .from(decisions)
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
  const content = await caseContent(d1, c.c, list);
  return { ...c, notices: list, earlier, flags, ...content };
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
