/**
 * Chat: conversations between two members, who may read and write them, what a message costs, and
 * the overview's unread counts. Sending is called by the ChatRoom Durable Object only (app/chat/room.ts),
 * so one conversation's messages are stored in one order; the charge and the message are one D1 batch.
 */
import { and, eq, gt, gte, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { getDb, schema } from "../../db/client";
import { nowS } from "~/lib/dates";
import { normaliseText } from "~/lib/text";
import type {
  ChatPrices,
  ConversationSummary,
  MessageKind,
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
import { debitStatement, ledgerStatement } from "./credits.server";
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
export function previewOf(kind: MessageKind, body: string, giftId: string | null): string {
  return kind === "gift" ? `gift:${giftId}` : body.trim().slice(0, PREVIEW_CHARS);
}

// ---------------------------------------------------------------------------------------------
// Rows

type MessageRow = {
  id: number;
  seq: number;
  sender_id: string;
  client_id: string;
  kind: MessageKind;
  body: string;
  gift_id: string | null;
  created_at: number;
  held: number | boolean;
};
const MESSAGE_COLUMNS = "id, seq, sender_id, client_id, kind, body, gift_id, created_at, held";

/**
 * A message as clients see it: its id is its number within the conversation, never the global row
 * id, which would tell anyone how many messages the whole site carries (issue 12, decision 089).
 */
export function toWire(r: MessageRow): WireMessage {
  return {
    id: r.seq,
    senderId: r.sender_id,
    clientId: r.client_id,
    kind: r.kind,
    body: r.body,
    giftId: r.gift_id,
    createdAt: r.created_at,
    held: !!r.held,
  };
}

/** MESSAGE_COLUMNS for drizzle's builder, under the same names (toWire reads both). */
function messageFields() {
  const m = schema.messages;
  return {
    id: m.id,
    seq: m.seq,
    sender_id: m.senderId,
    client_id: m.clientId,
    kind: m.kind,
    body: m.body,
    gift_id: m.giftId,
    created_at: m.createdAt,
    held: m.held,
  };
}

/** VISIBLE for the builder. */
function visibleTo(conversationId: string, cutoff: number, viewerId: string) {
  const m = schema.messages;
  return and(
    eq(m.conversationId, conversationId),
    gte(m.createdAt, cutoff),
    or(eq(m.held, false), eq(m.senderId, viewerId)),
  );
}

/** Visible to `viewerId`: within the history limit, and held messages only to their sender. */
const VISIBLE = "conversation_id = ?1 AND created_at >= ?2 AND (held = 0 OR sender_id = ?3)";

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

/** GET /api/chats.php entries (docs/product.md §3 "Chat entry"). */
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

/** Everything the conversation page needs, in one D1 round trip. Null: not a member (404). */
export async function conversationView(
  db: D1Database,
  conversationId: string,
  memberId: string,
  chatHistoryDays: number,
): Promise<ConversationView | null> {
  const cutoff = historyCutoff(chatHistoryDays);
  const [access, messages, older, list] = await db.batch([
    accessStatement(db, conversationId, memberId),
    db
      .prepare(
        `SELECT * FROM (SELECT ${MESSAGE_COLUMNS} FROM messages WHERE ${VISIBLE} ORDER BY id DESC LIMIT ${PAGE_MESSAGES}) ORDER BY id`,
      )
      .bind(conversationId, cutoff, memberId),
    db
      .prepare("SELECT EXISTS(SELECT 1 FROM messages WHERE conversation_id = ?1 AND created_at < ?2) AS older")
      .bind(conversationId, cutoff),
    listStatement(db, memberId),
  ]);
  const accessRow = (access!.results as AccessRow[])[0];
  if (!accessRow) return null;
  return {
    access: toAccess(accessRow),
    messages: (messages!.results as MessageRow[]).map(toWire),
    olderHidden: !!(older!.results as { older: number }[])[0]?.older,
    list: (list!.results as ListRow[]).map(toSummary),
  };
}

/** Messages after number `afterId` that `viewerId` may see (a reconnecting client resumes from its last id). */
export async function messagesAfter(
  db: D1Database,
  conversationId: string,
  viewerId: string,
  afterId: number,
  chatHistoryDays = 3650,
) {
  const m = schema.messages;
  const rows = await getDb(db)
    .select(messageFields())
    .from(m)
    .where(and(visibleTo(conversationId, historyCutoff(chatHistoryDays), viewerId), gt(m.seq, afterId)))
    .orderBy(m.seq)
    .limit(PAGE_MESSAGES);
  return rows.map(toWire);
}

/** Opening a chat sets its unread count to 0 (docs/product.md §4). */
export async function markRead(db: D1Database, conversationId: string, memberId: string) {
  const { conversationMembers: cm } = schema;
  await getDb(db)
    .update(cm)
    .set({ unread: 0 })
    .where(and(eq(cm.conversationId, conversationId), eq(cm.userId, memberId), ne(cm.unread, 0)));
}

/** Removing a chat hides it for this member (a new message shows it again); the other keeps theirs. */
export async function hideConversation(db: D1Database, conversationId: string, memberId: string): Promise<boolean> {
  const { conversationMembers: cm } = schema;
  const rows = await getDb(db)
    .update(cm)
    .set({ hiddenAt: nowS(), unread: 0 })
    .where(and(eq(cm.conversationId, conversationId), eq(cm.userId, memberId)))
    .returning({ id: cm.conversationId });
  return rows.length === 1;
}

/**
 * Undo of a delete: shows the member's own chat again (their row only; the other's is never touched).
 * Idempotent: a chat already shown stays shown and still answers true; false when not a member.
 */
export async function unhideConversation(db: D1Database, conversationId: string, memberId: string): Promise<boolean> {
  const { conversationMembers: cm } = schema;
  const rows = await getDb(db)
    .update(cm)
    .set({ hiddenAt: null })
    .where(and(eq(cm.conversationId, conversationId), eq(cm.userId, memberId)))
    .returning({ id: cm.conversationId });
  return rows.length === 1;
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
// Sending (called by the ChatRoom object only)

export type { SendInput, SendResult };

const priceOf = (p: ChatPrices, kind: MessageKind) => (kind === "gift" ? p.gift : p.message);

/**
 * Charges and stores one message in a single D1 batch, in one round trip: every rule (membership,
 * blocks, deleted receiver, length, price, balance, a client id not stored yet) is a condition of
 * the guarded debit, and each following statement runs only if the one before changed a row.
 * Only when nothing was stored does a second read find out why (or find the earlier copy of a retry).
 * Messages of a not_confirmed sender are held. The price is the caller's pricesFor result.
 */
export async function sendMessage(db: D1Database, i: SendInput): Promise<SendResult> {
  const cost = priceOf(i.prices, i.kind);
  let body = "";
  let giftId: string | null = null;
  if (i.kind === "gift") {
    const gift = giftById(i.giftId);
    if (!gift) return { ok: false, error: "gift" };
    giftId = gift.id;
  } else {
    // Both paths (socket and form) arrive here: invisible-only text is empty, never charged.
    body = normaliseText(i.body ?? "", { multiline: true });
    if (!body) return { ok: false, error: "empty" };
  }
  const now = nowS();
  const preview = previewOf(i.kind, body, giftId);
  const thisMessage = "SELECT %s FROM messages WHERE conversation_id = ?1 AND sender_id = ?2 AND client_id = ?3";
  const stored = (column: string) => `(${thisMessage.replace("%s", column)})`;
  const results = await db.batch([
    // 1. The charge, guarded by every rule.
    debitStatement(db, i.senderId, cost, {
      sql: `EXISTS (SELECT 1 FROM conversations c JOIN users o ON o.id = CASE WHEN c.member_a = ?1 THEN c.member_b ELSE c.member_a END
                    WHERE c.id = ?3 AND (c.member_a = ?1 OR c.member_b = ?1) AND o.deleted_at IS NULL
                      AND NOT EXISTS (SELECT 1 FROM blocks WHERE (blocker_id = ?1 AND blocked_id = o.id) OR (blocker_id = o.id AND blocked_id = ?1))
                      AND NOT EXISTS (SELECT 1 FROM profiles op WHERE op.user_id = o.id AND op.status = 'suspended'))
            AND NOT EXISTS (SELECT 1 FROM messages WHERE conversation_id = ?3 AND sender_id = ?1 AND client_id = ?4)
            AND length(?5) <= (SELECT b.message_length FROM brands b WHERE b.id = users.brand_id)
            AND (users.messaging_restricted_until IS NULL OR users.messaging_restricted_until <= ?7)
            AND (?6 IS NULL OR EXISTS (SELECT 1 FROM sessions WHERE id_hash = ?6 AND user_id = ?1 AND expires_at > ?7))`,
      params: [i.conversationId, i.clientId, body, i.sessionHash ?? null, now],
    }),
    // 2. The message.
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: the message is stored only when the guarded debit before it charged (changes() = 1)
      .prepare(
        `INSERT INTO messages (conversation_id, sender_id, client_id, kind, body, gift_id, credits_charged, held, created_at, seq)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?8, (SELECT status = 'not_confirmed' FROM users WHERE id = ?2), ?7,
                (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE conversation_id = ?1)
         WHERE changes() = 1
         RETURNING ${MESSAGE_COLUMNS}`,
      )
      .bind(i.conversationId, i.senderId, i.clientId, i.kind, body, giftId, now, cost),
    // 3. The ledger row, pointing at the message, for what it was charged.
    ledgerStatement(db, {
      userId: i.senderId,
      reason: i.kind === "gift" ? "gift" : "message",
      now,
      delta: -cost,
      // The message's number within its conversation, never the site-wide row id (decision 089).
      refIdSql: `SELECT 'message:' || conversation_id || ':' || seq FROM messages WHERE conversation_id = ?6 AND sender_id = ?1 AND client_id = ?7`,
      params: [i.conversationId, i.clientId],
    }),
    // 4. The overview's last message (a held message is not shown to anyone else yet).
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: the overview's last message moves only when the message was stored (changes() = 1)
      .prepare(
        `UPDATE conversations SET last_message_at = CASE WHEN ${stored("held")} THEN last_message_at ELSE ?4 END,
                last_message_preview = CASE WHEN ${stored("held")} THEN last_message_preview ELSE ?5 END
         WHERE id = ?1 AND changes() = 1`,
      )
      .bind(i.conversationId, i.senderId, i.clientId, now, preview),
    // 5. The receiver's unread count (a held message is not counted); the chat shows again if hidden.
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: the receiver's unread count grows only when the overview update before it changed a row (changes() = 1)
      .prepare(
        `UPDATE conversation_members SET unread = unread + (1 - ${stored("held")}),
                hidden_at = CASE WHEN ${stored("held")} THEN hidden_at ELSE NULL END,
                last_activity_at = CASE WHEN ${stored("held")} THEN last_activity_at ELSE ?4 END
         WHERE conversation_id = ?1 AND user_id != ?2 AND changes() = 1
         RETURNING user_id, unread`,
      )
      .bind(i.conversationId, i.senderId, i.clientId, now),
    // 6. The sender's own row: the chat shows again at the top of their list.
    db
      // oxlint-disable-next-line no-restricted-properties -- guards: the sender's row moves only when the receiver's update before it changed a row (changes() = 1)
      .prepare(
        "UPDATE conversation_members SET hidden_at = NULL, last_activity_at = ?3 WHERE conversation_id = ?1 AND user_id = ?2 AND changes() = 1",
      )
      .bind(i.conversationId, i.senderId, now),
  ]);
  const row = (results[1]!.results as MessageRow[])[0];
  if (row) {
    const receiver = (results[4]!.results as { user_id: string; unread: number }[])[0];
    return {
      ok: true,
      message: toWire(row),
      duplicate: false,
      receiverId: receiver?.user_id ?? "",
      firstUnread: !row.held && receiver?.unread === 1,
      cost,
    };
  }
  return whyNotSent(db, i, body, cost);
}

const SENDER_SQL = `
SELECT u.credits, p.country, o.id AS other_id, o.deleted_at AS other_deleted,
       coalesce(u.messaging_restricted_until, 0) > ?4 AS restricted,
       (?3 IS NULL OR EXISTS (SELECT 1 FROM sessions WHERE id_hash = ?3 AND user_id = u.id AND expires_at > ?4)) AS session_live,
       (EXISTS(SELECT 1 FROM blocks WHERE (blocker_id = u.id AND blocked_id = o.id) OR (blocker_id = o.id AND blocked_id = u.id))
        OR EXISTS(SELECT 1 FROM profiles WHERE user_id = o.id AND status = 'suspended')) AS blocked,
       b.message_length
FROM conversations c
JOIN users u ON u.id = ?2 AND u.deleted_at IS NULL
JOIN profiles p ON p.user_id = u.id
JOIN users o ON o.id = CASE WHEN c.member_a = ?2 THEN c.member_b ELSE c.member_a END
JOIN brands b ON b.id = u.brand_id
WHERE c.id = ?1 AND (c.member_a = ?2 OR c.member_b = ?2)`;

type SenderRow = {
  credits: number;
  country: string;
  other_id: string;
  other_deleted: number | null;
  blocked: number;
  restricted: number;
  session_live: number;
  message_length: number;
};

/** Nothing was stored: an earlier copy of this client id (a retry), or the rule that refused it. */
async function whyNotSent(db: D1Database, i: SendInput, body: string, cost: number): Promise<SendResult> {
  const [dup, sender] = await db.batch([
    db
      .prepare(
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ?1 AND sender_id = ?2 AND client_id = ?3`,
      )
      .bind(i.conversationId, i.senderId, i.clientId),
    db.prepare(SENDER_SQL).bind(i.conversationId, i.senderId, i.sessionHash ?? null, nowS()),
  ]);
  const s = (sender!.results as SenderRow[])[0];
  if (!s) return { ok: false, error: "not_found" };
  if (!s.session_live) return { ok: false, error: "session" };
  const earlier = (dup!.results as MessageRow[])[0];
  if (earlier)
    return { ok: true, message: toWire(earlier), duplicate: true, receiverId: s.other_id, firstUnread: false, cost: 0 };
  if (s.restricted) return { ok: false, error: "restricted" };
  if (s.other_deleted) return { ok: false, error: "deleted" };
  if (s.blocked) return { ok: false, error: "blocked" };
  if (i.kind === "text") {
    const invalid = validateBody(body, s.message_length);
    if (invalid) return { ok: false, error: invalid };
  }
  return { ok: false, error: "credits", cost };
}

// ---------------------------------------------------------------------------------------------
// Held messages

/**
 * Delivers the held messages of a member who just confirmed their e-mail address: they become
 * visible, count as unread and update the overview; open conversations receive them live.
 * Called by the accounts area's activation.
 */
export async function releaseHeldMessages(
  env: Pick<Env, "DB" | "CHAT_ROOM" | "MEMBER_HUB">,
  userId: string,
): Promise<number> {
  const db = env.DB;
  const m = schema.messages;
  const held = await getDb(db)
    .select({ conversation_id: m.conversationId, ...messageFields() })
    .from(m)
    .where(and(eq(m.senderId, userId), eq(m.held, true)))
    .orderBy(m.id);
  if (held.length === 0) return 0;
  const byConversation = new Map<string, (MessageRow & { conversation_id: string })[]>();
  for (const m of held) byConversation.set(m.conversation_id, [...(byConversation.get(m.conversation_id) ?? []), m]);
  const maxId = held[held.length - 1]!.id;
  const now = nowS();
  const orm = getDb(db);
  const { conversationMembers: cm, conversations: c } = schema;
  const statements: BatchItem<"sqlite">[] = [];
  for (const [conversationId, list] of byConversation) {
    const last = list[list.length - 1]!;
    statements.push(
      // Unread counts first, from the rows still held (ids up to maxId: later sends are not held any more).
      orm
        .update(cm)
        .set({
          unread: sql`${cm.unread} + (SELECT COUNT(*) FROM messages
              WHERE conversation_id = ${conversationId} AND sender_id = ${userId} AND held = 1 AND id <= ${maxId})`,
          hiddenAt: null,
          lastActivityAt: now,
        })
        .where(and(eq(cm.conversationId, conversationId), ne(cm.userId, userId)))
        .returning({ userId: cm.userId }),
      orm
        .update(c)
        .set({ lastMessageAt: last.created_at, lastMessagePreview: previewOf(last.kind, last.body, last.gift_id) })
        .where(eq(c.id, conversationId)),
    );
  }
  statements.push(
    orm
      .update(m)
      .set({ held: false })
      .where(and(eq(m.senderId, userId), eq(m.held, true), lte(m.id, maxId))),
  );
  const [first, ...rest] = statements;
  const results = (await orm.batch([first!, ...rest])) as unknown[];
  await Promise.all(
    [...byConversation].map(async ([conversationId, list], i) => {
      // The release is stored: an unreachable object costs open chats the live frame only (they load
      // the messages on their next fetch), so it is logged, not thrown.
      try {
        await roomStub(env, conversationId).deliver(list.map((m) => ({ ...toWire(m), held: false })));
      } catch (e) {
        logError("chat.deliver_failed", e, { conversationId, memberId: userId });
      }
      // Statement 2i is this conversation's unread update; it returned the receiver.
      const receiverId = (results[2 * i] as { userId: string }[] | undefined)?.[0]?.userId;
      if (receiverId) await notifyMember(env, receiverId, { kind: "message", conversationId, senderId: userId });
    }),
  );
  return held.length;
}
