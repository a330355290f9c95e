/**
 * The team behind the team-run profiles (decision 201): the inbox of conversations where a member
 * waits for a team-run profile's answer, claims (one team member per conversation at a time), the
 * conversation view and the reply, written as the profile and delivered through the conversation's
 * own object like any message (free for the member). The inbox rows are written by the rooms with
 * their overview (app/chat/room.ts); nothing here reads a member's e-mail address or payments.
 */
import { and, asc, eq, gt, inArray, isNotNull, ne, or, lt, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { getDb, schema } from "../../../db/client";
import { ageOn, nowS } from "~/lib/dates";
import type { Env } from "~/lib/env";
import { randomId } from "~/lib/password";
import { roomStub } from "~/chat/stubs";
import type { WireMessage } from "~/chat/protocol";
import { normaliseText } from "~/lib/text";
import { sendMessage } from "../chat.server";
import { TEAM_REPLY_HOURS_MIN } from "../team.server";
import { brandPhrases, guardReasons, personaReasons, statedTowns, type GuardReason } from "../team-guard";
import { auditStatement } from "./audit.server";
import { brandScope, inBrandScope, type Operator } from "./operators.server";

/** A claim nobody acts on for this long lapses: another team member may take the conversation. */
export const CLAIM_IDLE_S = 5 * 60;
/** The inbox shows at most this many conversations (the longest waits). */
export const INBOX_PAGE = 100;
/** A reply's longest text (the brands' message lengths are below this; the room checks the brand's own). */
export const REPLY_MAX = 4000;
/** A team note about a member. */
export const NOTES_MAX = 2000;

type InboxEnv = Pick<Env, "DB" | "CHAT_ROOM">;

export type InboxFilter = {
  brandId?: number | null;
  language?: string | null;
  profileId?: string | null;
  mine?: boolean;
};

const live = (now: number) => gt(schema.teamConversations.claimedAt, now - CLAIM_IDLE_S);

/** The waiting conversations, longest wait first, with the claim (if still live) of each. */
export async function teamInbox(d1: D1Database, operator: Operator, f: InboxFilter, now = nowS()) {
  const { teamConversations: tc, profiles, operators } = schema;
  const pp = alias(profiles, "pp");
  const mp = alias(profiles, "mp");
  const where: SQL[] = [isNotNull(tc.waitingSince)];
  const scope = brandScope(operator);
  if (scope) where.push(inArray(tc.brandId, scope));
  if (f.brandId) where.push(eq(tc.brandId, f.brandId));
  if (f.language) where.push(eq(tc.language, f.language));
  if (f.profileId) where.push(eq(tc.profileId, f.profileId));
  if (f.mine) where.push(eq(tc.claimedBy, operator.id), live(now));
  return getDb(d1)
    .select({
      conversationId: tc.conversationId,
      brandId: tc.brandId,
      language: tc.language,
      waitingSince: tc.waitingSince,
      credits: tc.credits,
      profileId: tc.profileId,
      profileName: pp.name,
      memberName: mp.name,
      claimedBy: sql<string | null>`CASE WHEN ${tc.claimedAt} > ${now - CLAIM_IDLE_S} THEN ${operators.name} END`,
      claimedAt: sql<number | null>`CASE WHEN ${tc.claimedAt} > ${now - CLAIM_IDLE_S} THEN ${tc.claimedAt} END`,
      mine: sql<number>`${tc.claimedBy} = ${operator.id} AND ${tc.claimedAt} > ${now - CLAIM_IDLE_S}`,
    })
    .from(tc)
    .innerJoin(pp, eq(pp.userId, tc.profileId))
    .innerJoin(mp, eq(mp.userId, tc.memberId))
    .leftJoin(operators, eq(operators.id, tc.claimedBy))
    .where(and(...where))
    .orderBy(asc(tc.waitingSince))
    .limit(INBOX_PAGE);
}

/** The filters' choices: the operator's brands, languages waiting, and the brands' team-run profiles. */
export async function inboxChoices(d1: D1Database, operator: Operator) {
  const db = getDb(d1);
  const { brands, profiles, users, teamConversations: tc } = schema;
  const scope = brandScope(operator);
  const brandWhere = scope ? inArray(brands.id, scope) : undefined;
  const [brandRows, profileRows, languages] = await db.batch([
    db.select({ id: brands.id, name: brands.name }).from(brands).where(brandWhere).orderBy(brands.id),
    db
      .select({ id: profiles.userId, name: profiles.name, brandId: users.brandId })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(
        and(
          eq(profiles.fictional, true),
          sql`${users.deletedAt} IS NULL`,
          scope ? inArray(users.brandId, scope) : undefined,
        ),
      )
      .orderBy(profiles.name),
    db
      .selectDistinct({ language: tc.language })
      .from(tc)
      .where(and(isNotNull(tc.waitingSince), scope ? inArray(tc.brandId, scope) : undefined))
      .orderBy(tc.language),
  ]);
  return { brands: brandRows, profiles: profileRows, languages: languages.map((l) => l.language) };
}

export type ClaimResult = { ok: true } | { ok: false; holder: string; since: number } | { ok: false; missing: true };

/**
 * Opening a conversation claims it: one guarded UPDATE (free, already mine, or lapsed), so of two team
 * members opening it at once exactly one gets it; the other is told who holds it since when.
 */
export async function claimConversation(
  d1: D1Database,
  operator: Operator,
  conversationId: string,
  now = nowS(),
): Promise<ClaimResult> {
  const { teamConversations: tc, operators } = schema;
  const db = getDb(d1);
  const scope = brandScope(operator);
  const [claimed, [row]] = await db.batch([
    db
      .update(tc)
      .set({ claimedBy: operator.id, claimedAt: now })
      .where(
        and(
          eq(tc.conversationId, conversationId),
          // Another brand's conversation is not this team member's to take.
          scope ? inArray(tc.brandId, scope) : undefined,
          or(sql`${tc.claimedBy} IS NULL`, eq(tc.claimedBy, operator.id), lt(tc.claimedAt, now - CLAIM_IDLE_S + 1)),
        ),
      ),
    db
      .select({ claimedBy: tc.claimedBy, claimedAt: tc.claimedAt, name: operators.name, brandId: tc.brandId })
      .from(tc)
      .leftJoin(operators, eq(operators.id, tc.claimedBy))
      .where(eq(tc.conversationId, conversationId)),
  ]);
  if (!row || !inBrandScope(operator, row.brandId)) return { ok: false, missing: true };
  if (claimed.meta.changes === 1 && row.claimedBy === operator.id) return { ok: true };
  return { ok: false, holder: row.name ?? "another team member", since: row.claimedAt ?? now };
}

/** Gives a claim up (only one's own). */
export async function releaseClaim(d1: D1Database, operator: Operator, conversationId: string): Promise<boolean> {
  const tc = schema.teamConversations;
  const r = await getDb(d1)
    .update(tc)
    .set({ claimedBy: null, claimedAt: null })
    .where(and(eq(tc.conversationId, conversationId), eq(tc.claimedBy, operator.id)));
  return r.meta.changes === 1;
}

/**
 * Everything the team member needs to answer: the conversation's messages as the profile sees them
 * (the room's own), the member's public profile (no e-mail, no payments), their other conversations
 * with the brand's team-run profiles, the persona notes and the team's notes on the member. Null: not
 * a team-run profile's conversation.
 */
export async function teamConversation(env: InboxEnv, operator: Operator, conversationId: string, now = nowS()) {
  const db = getDb(env.DB);
  const { teamConversations: tc, profiles, brands, users, teamPersonas, teamMemberNotes, operators } = schema;
  const pp = alias(profiles, "pp");
  const [row] = await db
    .select({
      conversationId: tc.conversationId,
      brandId: tc.brandId,
      brandName: brands.name,
      chatHistoryDays: brands.chatHistoryDays,
      messageLength: brands.messageLength,
      profileId: tc.profileId,
      memberId: tc.memberId,
      language: tc.language,
      waitingSince: tc.waitingSince,
      credits: tc.credits,
      claimedBy: tc.claimedBy,
      claimedAt: tc.claimedAt,
      holder: operators.name,
      fictional: pp.fictional,
    })
    .from(tc)
    .innerJoin(pp, eq(pp.userId, tc.profileId))
    .innerJoin(brands, eq(brands.id, tc.brandId))
    .leftJoin(operators, eq(operators.id, tc.claimedBy))
    .where(eq(tc.conversationId, conversationId));
  if (!row || !row.fictional || !inBrandScope(operator, row.brandId)) return null;
  const publicProfile = (id: string) =>
    db
      .select({
        id: profiles.userId,
        name: profiles.name,
        gender: profiles.gender,
        dateOfBirth: profiles.dateOfBirth,
        country: profiles.country,
        city: profiles.city,
        aboutMe: profiles.aboutMe,
        relationshipStatus: profiles.relationshipStatus,
        memberSince: users.createdAt,
      })
      .from(profiles)
      .innerJoin(users, eq(users.id, profiles.userId))
      .where(eq(profiles.userId, id));
  const [[member], [profile], earlier, [persona], [notes]] = await db.batch([
    publicProfile(row.memberId),
    publicProfile(row.profileId),
    db
      .select({
        conversationId: tc.conversationId,
        profileName: pp.name,
        credits: tc.credits,
        waitingSince: tc.waitingSince,
      })
      .from(tc)
      .innerJoin(pp, eq(pp.userId, tc.profileId))
      .where(and(eq(tc.memberId, row.memberId), ne(tc.conversationId, conversationId), eq(tc.brandId, row.brandId))),
    db.select().from(teamPersonas).where(eq(teamPersonas.userId, row.profileId)),
    db
      .select({ notes: teamMemberNotes.notes, updatedAt: teamMemberNotes.updatedAt, by: operators.name })
      .from(teamMemberNotes)
      .leftJoin(operators, eq(operators.id, teamMemberNotes.updatedBy))
      .where(eq(teamMemberNotes.memberId, row.memberId)),
  ]);
  const history = await roomStub(env, conversationId).history(conversationId, row.profileId, row.chatHistoryDays);
  const age = (dob: string | undefined) => (dob ? ageOn(dob, new Date(now * 1000)) : null);
  const claimLive = row.claimedAt !== null && row.claimedAt > now - CLAIM_IDLE_S;
  return {
    ...row,
    claimedBy: claimLive ? row.claimedBy : null,
    holder: claimLive ? row.holder : null,
    member: member ? { ...member, age: age(member.dateOfBirth) } : null,
    profile: profile ? { ...profile, age: age(profile.dateOfBirth) } : null,
    earlier,
    persona: persona ?? null,
    notes: notes ?? null,
    messages: (history?.messages ?? []) as WireMessage[],
  };
}

/** The member has read the conversation as the profile opened it: the member sees the receipt, as from anyone. */
export async function markReadAsProfile(env: InboxEnv, conversationId: string, profileId: string) {
  await roomStub(env, conversationId).read(conversationId, profileId);
}

export type ReplyResult =
  | { ok: true; seq: number }
  | { ok: false; error: "claim" | "empty" | "long" | "send"; detail?: string }
  | { ok: false; error: "guard"; reasons: GuardReason[] };

/**
 * The reply, as the profile: the claim must be this operator's and live (refreshed by the same guarded
 * UPDATE), the text passes the guard rails, the conversation's object stores and delivers it (free: no
 * price), and the audit log gets who wrote it as which profile. `clientId` (from the form) makes a
 * repeated post one message.
 */
export async function teamReply(
  env: InboxEnv,
  operator: Operator,
  conversationId: string,
  input: { body: string; clientId: string },
  now = nowS(),
): Promise<ReplyResult> {
  const body = normaliseText(input.body, { multiline: true });
  if (!body) return { ok: false, error: "empty" };
  if (body.length > REPLY_MAX) return { ok: false, error: "long" };
  const db = getDb(env.DB);
  const { teamConversations: tc, brands, profiles } = schema;
  const [row] = await db
    .select({
      replyHours: brands.teamReplyHours,
      profileId: tc.profileId,
      teamPhrases: brands.teamPhrases,
      fictional: profiles.fictional,
      dateOfBirth: profiles.dateOfBirth,
      city: profiles.city,
      brandId: tc.brandId,
    })
    .from(tc)
    .innerJoin(brands, eq(brands.id, tc.brandId))
    .innerJoin(profiles, eq(profiles.userId, tc.profileId))
    .where(eq(tc.conversationId, conversationId));
  if (!row || !row.fictional || !inBrandScope(operator, row.brandId)) return { ok: false, error: "claim" };
  const persona = { age: ageOn(row.dateOfBirth, new Date(now * 1000)), city: row.city };
  const reasons = [
    ...guardReasons(body, brandPhrases(row.teamPhrases)),
    ...personaReasons(body, persona, await knownTowns(env.DB, statedTowns(body))),
  ];
  if (reasons.length > 0) return { ok: false, error: "guard", reasons };
  // Still mine (and kept alive): a lapsed claim taken by someone else refuses the reply.
  const kept = await db
    .update(tc)
    .set({ claimedAt: now })
    .where(and(eq(tc.conversationId, conversationId), eq(tc.claimedBy, operator.id), live(now)));
  if (kept.meta.changes !== 1) return { ok: false, error: "claim" };
  // What this reply answers, read before it is stored (the dashboard's figures).
  const waiting = (await roomStub(env, conversationId).teamWaiting(conversationId)) ?? [];
  const sent = await sendMessage(env, {
    conversationId,
    senderId: row.profileId,
    clientId: input.clientId,
    kind: "text",
    body,
    // The member pays for their own messages, never for the answer.
    prices: { message: 0, gift: 0 },
  });
  if (!sent.ok) return { ok: false, error: "send", detail: sent.error };
  if (!sent.duplicate) {
    const paid = waiting.filter((m) => m.paid);
    const windowS = Math.max(row.replyHours, TEAM_REPLY_HOURS_MIN) * 3600;
    await db.batch([
      auditStatement(
        db,
        operator,
        {
          action: "team.reply",
          targetType: "conversation",
          targetId: conversationId,
          after: { profileId: row.profileId, seq: sent.message.id },
        },
        now,
      ),
      db.insert(schema.teamEvents).values({
        kind: "reply",
        brandId: row.brandId,
        conversationId,
        operatorId: operator.id,
        at: now,
        // A follow-up while nothing waits is no reply time.
        waited: waiting.length ? Math.max(0, now - waiting[0]!.createdAt) : null,
        paid: paid.length,
        paidInTime: paid.filter((m) => !m.returned && now - m.createdAt <= windowS).length,
        paidReturned: paid.filter((m) => m.returned).length,
      }),
    ]);
  }
  return { ok: true, seq: sent.message.id };
}

/** Which of the names are towns (the towns table, by its name index); no query when a reply names none. */
async function knownTowns(d1: D1Database, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const { cities } = schema;
  const rows = await getDb(d1)
    .selectDistinct({ name: cities.name })
    .from(cities)
    .where(sql`${cities.name} IN (SELECT value FROM json_each(${JSON.stringify(names.slice(0, 50))}))`);
  return rows.map((r) => r.name);
}

/**
 * The profile is typing: its team member writes in the reply box (the console's script posts this
 * every few seconds while they type). Only the live claim's holder; the member sees "typing" as from anyone.
 */
export async function teamTyping(env: InboxEnv, operator: Operator, conversationId: string, now = nowS()) {
  const tc = schema.teamConversations;
  const [row] = await getDb(env.DB)
    .select({ brandId: tc.brandId })
    .from(tc)
    .where(and(eq(tc.conversationId, conversationId), eq(tc.claimedBy, operator.id), live(now)));
  if (!row || !inBrandScope(operator, row.brandId)) return false;
  return roomStub(env, conversationId).teamTyping(conversationId, true);
}

/**
 * What changed in the inbox, in one string: the waiting conversations and their claims (through the
 * waiting index, the operator's brands only). The live list compares it every few seconds.
 */
export async function inboxVersion(d1: D1Database, operator: Operator) {
  const tc = schema.teamConversations;
  const scope = brandScope(operator);
  const [row] = await getDb(d1)
    .select({
      n: sql<number>`COUNT(*)`,
      w: sql<number>`COALESCE(SUM(${tc.waitingSince}), 0)`,
      c: sql<number>`COALESCE(SUM(${tc.claimedAt}), 0)`,
      k: sql<number>`COUNT(${tc.claimedBy})`,
    })
    .from(tc)
    .where(and(isNotNull(tc.waitingSince), scope ? inArray(tc.brandId, scope) : undefined));
  return row ? `${row.n}.${row.w}.${row.c}.${row.k}` : "0";
}

/** A new client id for a reply form (a repeated post of the same form is one message). */
export const replyClientId = () => `team-${randomId(9)}`;

/** The team's notes about a member (replaced; the newest text wins). */
export async function saveMemberNotes(
  d1: D1Database,
  operator: Operator,
  memberId: string,
  notes: string,
  now = nowS(),
) {
  const text = normaliseText(notes, { multiline: true }).slice(0, NOTES_MAX);
  const n = schema.teamMemberNotes;
  await getDb(d1)
    .insert(n)
    .values({ memberId, notes: text, updatedBy: operator.id, updatedAt: now })
    .onConflictDoUpdate({ target: n.memberId, set: { notes: text, updatedBy: operator.id, updatedAt: now } });
}
