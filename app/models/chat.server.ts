/**
 * Chat: conversations between two members, who may read and write them, what a message costs, and
 * the overview's unread counts. A conversation's messages live in its ChatRoom object (app/chat/room.ts,
 * decision 190), which stores them in one order; D1 keeps the conversations, the members' overview
 * (written by the object, coalesced) and the rules a send checks.
 */
import { orEmptyIfDropped, recordMoveDone } from "./data-moves.server";
import { and, eq, gt, isNull, lte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { alias } from "drizzle-orm/sqlite-core";
import { getDb, schema } from "../../db/client";
import { nowS } from "~/lib/dates";
import { normaliseText } from "~/lib/text";
import type {
  ChatPrices,
  ConversationSummary,
  MessageKind,
  ShownKind,
  SendError,
  SendInput,
  SendResult,
  WireMessage,
} from "~/chat/protocol";
import { giftById } from "~/chat/gifts";
import { FREE_CONVERSATIONS } from "~/lib/constants";
import { randomId } from "~/lib/password";
import type { Env } from "~/lib/env";
import { roomStub } from "~/chat/stubs";
import { logError } from "~/lib/log.server";
import { notifyMember } from "./hub.server";
import { shownPhoto, shownPhotoSql } from "./photos.server";
import { messagingRestricted } from "./moderation-rules";

const DAY = 86_400;
const PREVIEW_CHARS = 120;
/** Messages a conversation page or a reconnect sends at most (older ones: scroll is not offered). */
export const PAGE_MESSAGES = 200;

// ---------------------------------------------------------------------------------------------
// Pure rules

/** The pair in stored order (member_a < member_b), so a pair has exactly one conversation. */
export function orderedPair(x: string, y: string): [string, string] {
  return x < y ? [x, y] : [y, x];
}

/** Messages before this moment are hidden (brand setting chat_history_days). */
export function historyCutoff(chatHistoryDays: number, now = nowS()): number {
  return now - chatHistoryDays * DAY;
}

export function validateBody(body: string, messageLength: number): SendError | null {
  const text = body.trim();
  if (!text) return "empty";
  if ([...text].length > messageLength) return "length";
  return null;
}

/** What the overview shows for a message: gifts as "gift:<id>" (rendered translated). */
export function previewOf(kind: ShownKind, body: string, giftId: string | null): string {
  return kind === "gift" ? `gift:${giftId}` : body.trim().slice(0, PREVIEW_CHARS);
}

// ---------------------------------------------------------------------------------------------
// Access

export interface ConversationAccess {
  id: string;
  otherId: string;
  otherName: string;
  otherPhotoId: string | null;
  otherFictional: boolean;
  startedBy: string;
  /** Blocked either way: can read the history, cannot write. */
  blockedBy: "me" | "other" | "unavailable" | null;
  /** The other member's unread count here (0: they have read everything). */
  otherUnread: number;
  myUnread: number;
  hidden: boolean;
}

const ACCESS_SQL = `
SELECT c.id, c.started_by, o.id AS other_id, op.name AS other_name, ${shownPhotoSql("op.main_photo_id")} AS other_photo,
       op.fictional AS other_fictional, me.unread AS my_unread, me.hidden_at AS my_hidden, oth.unread AS other_unread,
       EXISTS(SELECT 1 FROM blocks WHERE blocker_id = ?2 AND blocked_id = o.id) AS i_blocked,
       EXISTS(SELECT 1 FROM blocks WHERE blocker_id = o.id AND blocked_id = ?2) AS they_blocked,
       op.status = 'suspended' AS other_unavailable
FROM conversations c
JOIN conversation_members me ON me.conversation_id = c.id AND me.user_id = ?2
JOIN users o ON o.id = CASE WHEN c.member_a = ?2 THEN c.member_b ELSE c.member_a END
JOIN profiles op ON op.user_id = o.id
JOIN conversation_members oth ON oth.conversation_id = c.id AND oth.user_id = o.id
WHERE c.id = ?1 AND o.deleted_at IS NULL`;

type AccessRow = {
  id: string;
  started_by: string;
  other_id: string;
  other_name: string;
  other_photo: string | null;
  other_fictional: number;
  my_unread: number;
  my_hidden: number | null;
  other_unread: number;
  i_blocked: number;
  they_blocked: number;
  other_unavailable: number;
};

function toAccess(r: AccessRow): ConversationAccess {
  return {
    id: r.id,
    otherId: r.other_id,
    otherName: r.other_name,
    otherPhotoId: r.other_photo,
    otherFictional: !!r.other_fictional,
    startedBy: r.started_by,
    // A suspended or banned member (decision 167) is "no longer available" to the other side.
    blockedBy: r.other_unavailable ? "unavailable" : r.they_blocked ? "other" : r.i_blocked ? "me" : null,
    otherUnread: r.other_unread,
    myUnread: r.my_unread,
    hidden: r.my_hidden !== null,
  };
}

function accessStatement(db: D1Database, conversationId: string, memberId: string) {
  return db.prepare(ACCESS_SQL).bind(conversationId, memberId);
}

/**
 * Who may read a conversation and connect to it: only its two members, and not once the other
 * member's account is deleted. Null means "not found" for everyone else (no enumeration).
 */
export async function conversationAccess(
  db: D1Database,
  conversationId: string,
  memberId: string,
): Promise<ConversationAccess | null> {
  if (!conversationId || conversationId.length > 64) return null;
  const row = await accessStatement(db, conversationId, memberId).first<AccessRow>();
  return row ? toAccess(row) : null;
}

// ---------------------------------------------------------------------------------------------
// Overview

export type { ConversationSummary };

const LIST_SQL = `
SELECT c.id, c.last_message_at, c.last_message_preview, cm.unread, o.id AS other_id, op.name AS other_name,
       ${shownPhotoSql("op.main_photo_id")} AS other_photo, op.fictional AS other_fictional
FROM conversation_members cm
JOIN conversations c ON c.id = cm.conversation_id
JOIN users o ON o.id = CASE WHEN c.member_a = cm.user_id THEN c.member_b ELSE c.member_a END
JOIN profiles op ON op.user_id = o.id
WHERE cm.user_id = ?1 AND cm.hidden_at IS NULL AND o.deleted_at IS NULL
  AND (c.last_message_at IS NOT NULL OR c.started_by = ?1)
ORDER BY cm.last_activity_at DESC
LIMIT 200`;

type ListRow = {
  id: string;
  last_message_at: number | null;
  last_message_preview: string | null;
  unread: number;
  other_id: string;
  other_name: string;
  other_photo: string | null;
  other_fictional: number;
};

const toSummary = (r: ListRow): ConversationSummary => ({
  id: r.id,
  otherId: r.other_id,
  otherName: r.other_name,
  otherPhotoId: r.other_photo,
  otherFictional: !!r.other_fictional,
  unread: r.unread,
  lastMessageAt: r.last_message_at,
  lastMessagePreview: r.last_message_preview,
});

function listStatement(db: D1Database, memberId: string) {
  return db.prepare(LIST_SQL).bind(memberId);
}

/** The member's conversations, most recent activity first (index conversation_members_user). */
export async function listConversations(db: D1Database, memberId: string): Promise<ConversationSummary[]> {
  const { results } = await listStatement(db, memberId).all<ListRow>();
  return results.map(toSummary);
}

/** GET /api/chats.php entries (docs/product/data.md §3 "Chat entry"). */
export function chatEntries(list: ConversationSummary[]) {
  return list.map((c) => ({ conversation: { id: c.id }, profile: { id: c.otherId }, num_unread_messages: c.unread }));
}

// ---------------------------------------------------------------------------------------------
// One conversation's page

export interface ConversationView {
  access: ConversationAccess;
  messages: WireMessage[];
  /** Older messages exist but are hidden by the history limit. */
  olderHidden: boolean;
  list: ConversationSummary[];
}

/**
 * Everything the conversation page needs: who, and the overview, from D1 in one batch; the messages
 * from the conversation's object, which keeps them (decision 190) and, when the member opens the chat,
 * marks it read in the same call; both at once. Null: not a member (404).
 */
export async function conversationView(
  env: Pick<Env, "DB" | "CHAT_ROOM">,
  conversationId: string,
  memberId: string,
  chatHistoryDays: number,
  // The member opens the chat (its page): marked read in the object's same call.
  opened = false,
): Promise<ConversationView | null> {
  if (!conversationId || conversationId.length > 64) return null;
  const db = env.DB;
  const [[access, list], history] = await Promise.all([
    db.batch([accessStatement(db, conversationId, memberId), listStatement(db, memberId)]),
    roomStub(env, conversationId).history(conversationId, memberId, chatHistoryDays, opened),
  ]);
  const accessRow = (access!.results as AccessRow[])[0];
  if (!accessRow || !history) return null;
  return {
    access: toAccess(accessRow),
    messages: history.messages,
    olderHidden: history.olderHidden,
    list: (list!.results as ListRow[]).map(toSummary),
  };
}

/**
 * Removing a chat hides it for this member (a new message shows it again); the other keeps theirs.
 * Through the object, which owns the member's read state and writes the overview at once.
 */
export const hideConversation = (env: Pick<Env, "CHAT_ROOM">, conversationId: string, memberId: string) =>
  setHidden(env, conversationId, memberId, true);

/**
 * Undo of a delete: shows the member's own chat again (their row only; the other's is never touched).
 * Idempotent: a chat already shown stays shown and still answers true; false when not a member.
 */
export const unhideConversation = (env: Pick<Env, "CHAT_ROOM">, conversationId: string, memberId: string) =>
  setHidden(env, conversationId, memberId, false);

async function setHidden(env: Pick<Env, "CHAT_ROOM">, conversationId: string, memberId: string, hidden: boolean) {
  if (!conversationId || conversationId.length > 64) return false;
  return roomStub(env, conversationId).hide(conversationId, memberId, hidden);
}

// ---------------------------------------------------------------------------------------------
// Starting a conversation

export type StartResult =
  | { ok: true; id: string; created: boolean }
  | { ok: false; error: "not_found" | "self" | "blocked" | "premium" | "restricted" };

/** The name and photo shown in the header of a chat with `otherId` (null: no such member). */
export async function otherMemberCard(db: D1Database, otherId: string) {
  const { users: u, profiles: p } = schema;
  const row = await getDb(db)
    .select({ id: u.id, name: p.name, photoId: shownPhoto(p.mainPhotoId), fictional: p.fictional })
    .from(u)
    .innerJoin(p, eq(p.userId, u.id))
    .where(and(eq(u.id, otherId), isNull(u.deletedAt)))
    .get();
  return row ?? null;
}

export async function findConversationWith(db: D1Database, memberId: string, otherId: string): Promise<string | null> {
  const [a, b] = orderedPair(memberId, otherId);
  const { conversations: c } = schema;
  const row = await getDb(db)
    .select({ id: c.id })
    .from(c)
    .where(and(eq(c.memberA, a), eq(c.memberB, b)))
    .get();
  return row?.id ?? null;
}

type StartCheck = {
  other_ok: number;
  blocked: number;
  paid: number;
  started: number;
  existing: string | null;
  restricted_until: number | null;
};

async function startCheck(db: D1Database, memberId: string, otherId: string) {
  const [a, b] = orderedPair(memberId, otherId);
  return db
    .prepare(
      `SELECT EXISTS(SELECT 1 FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ?2 AND u.deleted_at IS NULL) AS other_ok,
              EXISTS(SELECT 1 FROM blocks WHERE (blocker_id = ?1 AND blocked_id = ?2) OR (blocker_id = ?2 AND blocked_id = ?1)) AS blocked,
              (SELECT paid_user FROM users WHERE id = ?1) AS paid,
              (SELECT messaging_restricted_until FROM users WHERE id = ?1) AS restricted_until,
              (SELECT COUNT(*) FROM conversations WHERE started_by = ?1) AS started,
              (SELECT id FROM conversations WHERE member_a = ?3 AND member_b = ?4) AS existing`,
    )
    .bind(memberId, otherId, a, b)
    .first<StartCheck>();
}

/**
 * May `memberId` write to `otherId` (before a conversation exists)? The same rules as
 * startConversation, read-only, so the page can show the premium prompt before anyone types.
 */
export async function canStart(db: D1Database, memberId: string, otherId: string): Promise<StartResult> {
  if (memberId === otherId) return { ok: false, error: "self" };
  const c = await startCheck(db, memberId, otherId);
  if (!c || !c.other_ok) return { ok: false, error: "not_found" };
  if (c.blocked) return { ok: false, error: "blocked" };
  if (c.existing) return { ok: true, id: c.existing, created: false };
  // A restricted member starts nothing (a free member's FREE_CONVERSATIONS are not spent on it).
  if (messagingRestricted(c.restricted_until)) return { ok: false, error: "restricted" };
  if (!c.paid && c.started >= FREE_CONVERSATIONS) return { ok: false, error: "premium" };
  return { ok: true, id: "", created: false };
}

/**
 * Opens the pair's conversation, creating it if needed. A free member may start at most
 * FREE_CONVERSATIONS: the count and the insert are one statement, so racing starts cannot pass it.
 */
export async function startConversation(db: D1Database, memberId: string, otherId: string): Promise<StartResult> {
  const check = await canStart(db, memberId, otherId);
  if (!check.ok || check.id) return check;
  const [a, b] = orderedPair(memberId, otherId);
  const id = randomId(12);
  const now = nowS();
  await db.batch([
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: a free member's conversation count and the insert are one statement (racing starts cannot pass FREE_CONVERSATIONS); the members' rows follow it
      .prepare(
        `INSERT INTO conversations (id, member_a, member_b, started_by, created_at)
         SELECT ?1, ?2, ?3, ?4, ?5
         WHERE (SELECT paid_user FROM users WHERE id = ?4) = 1
            OR (SELECT COUNT(*) FROM conversations WHERE started_by = ?4) < ?6
         ON CONFLICT (member_a, member_b) DO NOTHING`,
      )
      .bind(id, a, b, memberId, now, FREE_CONVERSATIONS),
    // Both members' rows; nothing when the conversation above was not inserted.
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: inserts both members' rows only when the conversation above was inserted (same batch)
      .prepare(
        `INSERT INTO conversation_members (conversation_id, user_id, last_activity_at)
         SELECT id, member_a, ?2 FROM conversations WHERE id = ?1
         UNION ALL SELECT id, member_b, ?2 FROM conversations WHERE id = ?1`,
      )
      .bind(id, now),
  ]);
  const existing = await findConversationWith(db, memberId, otherId);
  if (existing) return { ok: true, id: existing, created: existing === id };
  return { ok: false, error: "premium" };
}

export type FirstSendResult =
  | { ok: true; id: string }
  | { ok: false; error: "not_found" | "self" | "blocked" | "premium" | "restricted" | SendError };

/**
 * The first message to `otherId`: the start rules, then a member with too few credits for it is
 * told so before a free member spends one of their FREE_CONVERSATIONS on it; then the conversation
 * is started and the message sent through its object.
 */
export async function startAndSend(
  env: Pick<Env, "DB" | "CHAT_ROOM">,
  member: { id: string; credits: number },
  otherId: string,
  input: Omit<SendInput, "conversationId" | "senderId">,
): Promise<FirstSendResult> {
  const check = await canStart(env.DB, member.id, otherId);
  if (!check.ok) return check;
  if (member.credits < priceOf(input.prices, input.kind)) return { ok: false, error: "credits" };
  const started = await startConversation(env.DB, member.id, otherId);
  if (!started.ok) return started;
  const sent = await roomStub(env, started.id).send({ ...input, conversationId: started.id, senderId: member.id });
  return sent.ok ? { ok: true, id: started.id } : { ok: false, error: sent.error };
}

// ---------------------------------------------------------------------------------------------
// Sending: the conversation's object (app/chat/room.ts) stores; these are the D1 reads and the
// coalesced overview write it makes (decision 190). Nothing here writes D1 on a message's way.

export type { SendInput, SendResult };

export const priceOf = (p: ChatPrices, kind: MessageKind) => (kind === "gift" ? p.gift : p.message);

/** Sends one message through its conversation's object (the only place a message is stored). */
export function sendMessage(env: Pick<Env, "CHAT_ROOM">, input: SendInput): Promise<SendResult> {
  return roomStub(env, input.conversationId).send(input);
}

/**
 * The text or gift of a send, checked before anything else: invisible-only text is empty (never
 * charged), an unknown gift is refused. Both paths (socket and form) arrive here.
 */
export function messageContent(i: SendInput): { body: string; giftId: string | null } | SendError {
  if (i.kind === "gift") {
    const gift = giftById(i.giftId);
    return gift ? { body: "", giftId: gift.id } : "gift";
  }
  const body = normaliseText(i.body ?? "", { multiline: true });
  return body ? { body, giftId: null } : "empty";
}

/** What a send checks in D1 about its sender and the other member; the object keeps it until told it changed. */
export type SendRules = {
  brandId: number;
  messageLength: number;
  /** The sender has not confirmed their address: their messages are held. */
  held: boolean;
  restrictedUntil: number | null;
  otherDeleted: boolean;
  /** Blocked either way, or the other member suspended. */
  blocked: boolean;
  /** The socket's session's expiry (null: no such live session of the sender). */
  sessionExpires: number | null;
  /** Which side is a team-run profile (decision 201): its conversation goes to the team's inbox. */
  senderFictional: boolean;
  otherFictional: boolean;
};

/** One read: the rules of a send by `senderId` to `otherId` (null: the sender is gone). */
export async function sendRules(
  db: D1Database,
  senderId: string,
  otherId: string,
  sessionHash: string | null,
): Promise<SendRules | null> {
  const { users: u, brands: b, blocks: bl, profiles: p, sessions: s } = schema;
  const o = alias(u, "o");
  const row = await getDb(db)
    .select({
      brandId: u.brandId,
      messageLength: b.messageLength,
      status: u.status,
      restrictedUntil: u.messagingRestrictedUntil,
      otherDeletedAt: o.deletedAt,
      blocked: sql<number>`(EXISTS (SELECT 1 FROM ${bl} WHERE (${bl.blockerId} = ${senderId} AND ${bl.blockedId} = ${otherId})
          OR (${bl.blockerId} = ${otherId} AND ${bl.blockedId} = ${senderId}))
        OR EXISTS (SELECT 1 FROM ${p} WHERE ${p.userId} = ${otherId} AND ${p.status} = 'suspended'))`,
      sessionExpires: sql<
        number | null
      >`(SELECT ${s.expiresAt} FROM ${s} WHERE ${s.idHash} = ${sessionHash} AND ${s.userId} = ${senderId})`,
      senderFictional: sql<number | null>`(SELECT ${p.fictional} FROM ${p} WHERE ${p.userId} = ${senderId})`,
      otherFictional: sql<number | null>`(SELECT ${p.fictional} FROM ${p} WHERE ${p.userId} = ${otherId})`,
    })
    .from(u)
    .innerJoin(b, eq(b.id, u.brandId))
    .innerJoin(o, eq(o.id, otherId))
    .where(and(eq(u.id, senderId), isNull(u.deletedAt)))
    .get();
  if (!row) return null;
  return {
    brandId: row.brandId,
    messageLength: row.messageLength,
    held: row.status === "not_confirmed",
    restrictedUntil: row.restrictedUntil,
    otherDeleted: row.otherDeletedAt !== null,
    blocked: !!row.blocked,
    sessionExpires: row.sessionExpires,
    senderFictional: !!row.senderFictional,
    otherFictional: !!row.otherFictional,
  };
}

/** What a send's rules answer: refused, or what it costs, whether it is held, which side is team-run. */
export type SendVerdict =
  | { ok: false; error: SendError }
  | { ok: true; cost: number; held: boolean; teamProfile: string | null };

/**
 * The rules of one send, applied (pure): the room's check asks once per send, with the rules it
 * holds (decision 230). "session" is final; any other refusal lets a retry answer its stored message.
 */
export function sendVerdict(
  r: SendRules,
  i: Pick<SendInput, "kind" | "prices" | "senderId" | "sessionHash">,
  body: string,
  receiverId: string,
  now = nowS(),
): SendVerdict {
  // A live socket's send is refused once its session was revoked or expired (the form path passes none).
  if (i.sessionHash != null && !(r.sessionExpires !== null && r.sessionExpires > now))
    return { ok: false, error: "session" };
  const refused = refusal(r, i, body);
  if (refused) return { ok: false, error: refused };
  return {
    ok: true,
    cost: priceOf(i.prices, i.kind),
    // A team-run profile's reply (the console, decision 201) is never held: the profile has no address to confirm.
    held: r.held && !r.senderFictional,
    teamProfile: r.senderFictional ? i.senderId : r.otherFictional ? receiverId : null,
  };
}

/** The refusals after the session's, in the order the old single batch answered them. */
function refusal(r: SendRules, i: Pick<SendInput, "kind">, body: string): SendError | null {
  if (messagingRestricted(r.restrictedUntil)) return "restricted";
  if (r.otherDeleted) return "deleted";
  if (r.blocked) return "blocked";
  return i.kind === "text" ? validateBody(body, r.messageLength) : null;
}

/** What the object needs to know about its conversation, read once when it first opens. */
export async function roomConversation(db: D1Database, conversationId: string) {
  const { conversations: c, conversationMembers: cm, users: u } = schema;
  const orm = getDb(db);
  const [conv, rows] = await orm.batch([
    orm
      .select({
        memberA: c.memberA,
        memberB: c.memberB,
        lastMessageAt: c.lastMessageAt,
        lastMessagePreview: c.lastMessagePreview,
      })
      .from(c)
      .where(eq(c.id, conversationId)),
    orm
      .select({
        userId: cm.userId,
        unread: cm.unread,
        hiddenAt: cm.hiddenAt,
        lastActivityAt: cm.lastActivityAt,
        brandId: u.brandId,
      })
      .from(cm)
      .innerJoin(u, eq(u.id, cm.userId))
      .where(eq(cm.conversationId, conversationId)),
  ]);
  return conv[0] ? { ...conv[0], members: rows } : null;
}

/** Up to `limit` of a conversation's messages still in D1 (moved into its object by the migration), by row id. */
export async function d1MessagesPage(db: D1Database, conversationId: string, afterId: number, limit = 500) {
  const m = schema.messages;
  return orEmptyIfDropped(
    getDb(db)
      .select({
        id: m.id,
        seq: m.seq,
        sender_id: m.senderId,
        client_id: m.clientId,
        kind: m.kind,
        body: m.body,
        gift_id: m.giftId,
        credits_charged: m.creditsCharged,
        held: m.held,
        created_at: m.createdAt,
      })
      .from(m)
      .where(and(eq(m.conversationId, conversationId), gt(m.id, afterId)))
      .orderBy(m.id)
      .limit(limit),
  );
}

/** Deletes a conversation's D1 messages up to row id `maxId` (all of them now in its object). */
export async function deleteD1Messages(db: D1Database, conversationId: string, maxId: number) {
  const m = schema.messages;
  await getDb(db)
    .delete(m)
    .where(and(eq(m.conversationId, conversationId), lte(m.id, maxId)));
}

/** The overview as the object holds it: what it copies to D1, coalesced. */
export type OverviewWrite = {
  conversation: { lastMessageAt: number | null; lastMessagePreview: string | null } | null;
  members: { userId: string; unread: number; hiddenAt: number | null; lastActivityAt: number | null }[];
  /** Messages per brand and day since the last write (the console's dashboard). */
  days: { brandId: number; day: number; n: number }[];
  /** A team-run profile's conversation (decision 201): the team's inbox row. */
  team?: {
    brandId: number;
    profileId: string;
    memberId: string;
    waitingSince: number | null;
    waitingSeq: number | null;
    credits: number;
    firstReplyAt: number | null;
    refundFrom: number | null;
    creditsReturned: number;
  } | null;
};

/**
 * One D1 batch: the conversation's overview row, the members' rows that changed, the day counters.
 * Answers the rows D1 reports written (meta.rows_written: the bench's "D1 rows per message").
 */
export async function writeOverview(db: D1Database, conversationId: string, w: OverviewWrite): Promise<number> {
  const orm = getDb(db);
  const { conversations: c, conversationMembers: cm, chatMessageDays: d } = schema;
  const statements: BatchItem<"sqlite">[] = [];
  if (w.conversation) statements.push(orm.update(c).set(w.conversation).where(eq(c.id, conversationId)));
  for (const m of w.members)
    statements.push(
      orm
        .update(cm)
        .set({
          unread: m.unread,
          hiddenAt: m.hiddenAt,
          ...(m.lastActivityAt !== null ? { lastActivityAt: m.lastActivityAt } : {}),
        })
        .where(and(eq(cm.conversationId, conversationId), eq(cm.userId, m.userId))),
    );
  for (const x of w.days)
    statements.push(
      orm
        .insert(d)
        .values({ brandId: x.brandId, day: x.day, messages: x.n })
        .onConflictDoUpdate({ target: [d.brandId, d.day], set: { messages: sql`${d.messages} + excluded.messages` } }),
    );
  if (w.team) statements.push(teamConversationUpsert(orm, conversationId, w.team));
  const [first, ...rest] = statements;
  if (!first) return 0;
  const results = (await orm.batch([first, ...rest])) as { meta?: { rows_written?: number } }[];
  return results.reduce((n, r) => n + (r?.meta?.rows_written ?? 0), 0);
}

/**
 * The team's inbox row of a conversation with a team-run profile, as its object computed it. A reply
 * (nothing waits any more) ends the claim on it.
 */
function teamConversationUpsert(
  orm: ReturnType<typeof getDb>,
  conversationId: string,
  t: NonNullable<OverviewWrite["team"]>,
) {
  const tc = schema.teamConversations;
  const language = sql<string>`COALESCE((SELECT ${schema.users.language} FROM ${schema.users} WHERE ${schema.users.id} = ${t.memberId}), '')`;
  return orm
    .insert(tc)
    .values({
      conversationId,
      brandId: t.brandId,
      profileId: t.profileId,
      memberId: t.memberId,
      language,
      waitingSince: t.waitingSince,
      waitingSeq: t.waitingSeq,
      credits: t.credits,
      firstReplyAt: t.firstReplyAt,
      refundFrom: t.refundFrom,
      creditsReturned: t.creditsReturned,
    })
    .onConflictDoUpdate({
      target: tc.conversationId,
      set: {
        waitingSince: sql`excluded.waiting_since`,
        waitingSeq: sql`excluded.waiting_seq`,
        credits: sql`excluded.credits`,
        firstReplyAt: sql`excluded.first_reply_at`,
        refundFrom: sql`excluded.refund_from`,
        creditsReturned: sql`excluded.credits_returned`,
        language: sql`excluded.language`,
        claimedBy: sql`CASE WHEN excluded.waiting_since IS NULL THEN NULL ELSE ${tc.claimedBy} END`,
        claimedAt: sql`CASE WHEN excluded.waiting_since IS NULL THEN NULL ELSE ${tc.claimedAt} END`,
      },
    });
}

/** The conversations a member belongs to (their rooms), from the overview. */
async function conversationsOf(db: D1Database, userId: string): Promise<string[]> {
  const cm = schema.conversationMembers;
  const rows = await getDb(db).select({ id: cm.conversationId }).from(cm).where(eq(cm.userId, userId));
  return rows.map((r) => r.id);
}

/**
 * A rule a send checks changed for this member (a block, a restriction, a suspension, a confirmed
 * address): every object of their conversations forgets what it cached, so the next send re-reads it.
 * `only`: just that conversation (a block names the pair).
 */
export async function forgetChatRules(
  env: Pick<Env, "DB" | "CHAT_ROOM">,
  userId: string,
  only?: string | null,
): Promise<void> {
  const ids = only ? [only] : await conversationsOf(env.DB, userId);
  await Promise.all(
    ids.map((id) =>
      roomStub(env, id)
        .forget()
        .catch((e: unknown) => logError("chat.forget_failed", e, { conversationId: id, memberId: userId })),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Held messages

/**
 * Delivers the held messages of a member who just confirmed their e-mail address: each of their
 * conversations' objects releases them (visible, counted as unread, the overview written at once,
 * open chats receive them live). Called by the accounts area's activation. Answers how many.
 */
export async function releaseHeldMessages(
  env: Pick<Env, "DB" | "CHAT_ROOM" | "MEMBER_HUB">,
  userId: string,
): Promise<number> {
  const ids = await conversationsOf(env.DB, userId);
  const released = await Promise.all(
    ids.map(async (conversationId) => {
      // The messages are in the object: one that cannot be reached keeps them held (logged; a later
      // confirmation of the same member, or support, releases them), the others are released.
      try {
        const r = await roomStub(env, conversationId).release(conversationId, userId);
        if (r.count > 0 && r.receiverId)
          await notifyMember(env, r.receiverId, { kind: "message", conversationId, senderId: userId });
        return r.count;
      } catch (e) {
        logError("chat.release_failed", e, { conversationId, memberId: userId });
        return 0;
      }
    }),
  );
  return released.reduce((a, b) => a + b, 0);
}

// ---------------------------------------------------------------------------------------------
// Readers of messages outside the chat (each asks the conversations' objects)

/** The member's own messages, in every conversation of theirs (the GDPR export). */
export async function messagesSentBy(env: Pick<Env, "DB" | "CHAT_ROOM">, userId: string) {
  const ids = await conversationsOf(env.DB, userId);
  const lists = await Promise.all(ids.map((id) => roomStub(env, id).sentBy(id, userId)));
  return lists.flat().sort((a, b) => a.createdAt - b.createdAt || a.seq - b.seq);
}

/**
 * Deleting accounts for good (the purge): the objects of their conversations drop everything they
 * hold, before D1's cascade removes the conversations themselves.
 */
export async function wipeConversationsOf(env: Pick<Env, "DB" | "CHAT_ROOM">, userIds: string[]) {
  const ids = new Set<string>();
  for (const u of userIds) for (const id of await conversationsOf(env.DB, u)) ids.add(id);
  await Promise.all([...ids].map((id) => roomStub(env, id).wipe(id)));
}

// ---------------------------------------------------------------------------------------------
// Moving D1's messages into the objects (decision 190)

/** Conversations moved per queue message: each is one call to its object, which moves it whole. */
export const MIGRATE_PAGE = 20;

/**
 * One page of the move: up to MIGRATE_PAGE conversations that still have messages in D1 are each
 * moved by their object (import, idempotent, then the D1 rows deleted). Resumable and safe to run
 * twice: what is left in D1 is what is left to do. Answers how many conversations and whether more remain.
 */
export async function migrateMessagesPage(env: Pick<Env, "DB" | "CHAT_ROOM">, size = MIGRATE_PAGE) {
  const m = schema.messages;
  const rows = await getDb(env.DB).selectDistinct({ id: m.conversationId }).from(m).limit(size);
  const moved = await Promise.all(rows.map((r) => roomStub(env, r.id).migrate(r.id)));
  return { conversations: rows.length, messages: moved.reduce((a, b) => a + b, 0), more: rows.length === size };
}

/** Whether any message is still in D1 (the cron and the first request of a Worker start the move then). */
export async function messagesLeftInD1(db: D1Database): Promise<boolean> {
  const m = schema.messages;
  const rows = await orEmptyIfDropped(getDb(db).select({ id: m.id }).from(m).limit(1));
  return rows.length > 0;
}

/** The move's pages go on their own queue, never in front of members' mail and push (decision 194). */
type MigrationEnv = Pick<Env, "DB" | "CHAT_ROOM" | "MOVES_QUEUE">;

/**
 * The queue's consumer of a `chat_migrate` message: one page, then the next page queued while any is
 * left; the chain's last page records the end when D1 holds none (never restarts: a row that cannot
 * move waits for the cron instead of looping on the queue).
 */
export async function continueChatMigration(env: MigrationEnv) {
  const page = await migrateMessagesPage(env);
  if (page.more) await env.MOVES_QUEUE.send({ kind: "chat_migrate" }, { contentType: "json" });
  else if (!(await messagesLeftInD1(env.DB))) await recordMoveDone(env.DB, "messages");
  return page;
}

/**
 * Starts the move when D1 still holds messages: the daily cron, and the first request of each Worker
 * instance (so `npm start` on a database seeded before moves the demo data). Starting it twice is
 * harmless: every page is idempotent and the chains end when D1 holds none.
 */
export async function startChatMigration(env: MigrationEnv): Promise<boolean> {
  // Nothing left: recorded, so the next release may drop the table (decision 194).
  if (!(await messagesLeftInD1(env.DB))) return (await recordMoveDone(env.DB, "messages"), false);
  await env.MOVES_QUEUE.send({ kind: "chat_migrate" }, { contentType: "json" });
  return true;
}
