/**
 * A conversation's own storage, inside its ChatRoom object (`ctx.storage.sql`, decision 190): its
 * messages (number, client id, held flag, gifts), each member's read state and the overview the room
 * copies to D1 coalesced. Synchronous SQLite on the object's own disk: no network trip on a send.
 * Pure functions over `SqlStorage`, so the room stays short and tests can read a room directly.
 */
import type { ObjectMigration } from "../lib/object-schema";
import type { ShownKind, WireMessage } from "./protocol";

export type StoredMessage = {
  seq: number;
  sender_id: string;
  client_id: string;
  kind: ShownKind;
  body: string;
  gift_id: string | null;
  credits_charged: number;
  held: number;
  created_at: number;
};

export type MemberState = {
  user_id: string;
  unread: number;
  hidden_at: number | null;
  last_activity_at: number | null;
  /** Changed since the last copy to D1. */
  dirty: number;
};

/** The room's schema before versions existed (decision 230): every statement is idempotent. */
const BASELINE = [
  `CREATE TABLE IF NOT EXISTS messages (
     seq INTEGER PRIMARY KEY, sender_id TEXT NOT NULL, client_id TEXT NOT NULL, kind TEXT NOT NULL DEFAULT 'text',
     body TEXT NOT NULL, gift_id TEXT, credits_charged INTEGER NOT NULL DEFAULT 0, held INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL, UNIQUE (sender_id, client_id))`,
  "CREATE INDEX IF NOT EXISTS messages_held ON messages (sender_id, held)",
  `CREATE TABLE IF NOT EXISTS members (
     user_id TEXT PRIMARY KEY, unread INTEGER NOT NULL DEFAULT 0, hidden_at INTEGER, last_activity_at INTEGER,
     dirty INTEGER NOT NULL DEFAULT 0)`,
  "CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v)",
  // Messages per brand and day not yet added to D1's chat_message_days (the console's dashboard).
  "CREATE TABLE IF NOT EXISTS day_counts (brand_id INTEGER NOT NULL, day INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (brand_id, day))",
  // Spending allowances (decision 193): what each member's wallet granted this room and it has not
  // spent; `pending` is a grant asked whose answer has not arrived (asked again by its key).
  `CREATE TABLE IF NOT EXISTS allowances (
     user_id TEXT PRIMARY KEY, amount INTEGER NOT NULL DEFAULT 0 CHECK (amount >= 0), grants INTEGER NOT NULL DEFAULT 0,
     pending TEXT, returns INTEGER NOT NULL DEFAULT 0, last_spend_at INTEGER)`,
  // Charges and returns the wallet has not confirmed yet (deleted once it has).
  `CREATE TABLE IF NOT EXISTS charges (
     key TEXT PRIMARY KEY, user_id TEXT NOT NULL, kind TEXT NOT NULL, credits INTEGER NOT NULL, reason TEXT,
     ref_id TEXT, created_at INTEGER NOT NULL)`,
  // Receivers whose hub badge notify waits for the next overview write (kept here: survives an eviction).
  // `v` counts sets, so a write deletes only what it sent, never a newer one.
  "CREATE TABLE IF NOT EXISTS pending_notify (receiver_id TEXT PRIMARY KEY, sender_id TEXT NOT NULL, v INTEGER NOT NULL)",
];

/**
 * The room's storage, in order (app/lib/object-schema.ts runs each once, at construction). Append,
 * never edit one that shipped; each only adds, so the release before it still runs on the result.
 */
export const ROOM_MIGRATIONS: readonly ObjectMigration[] = [
  {
    name: "baseline: messages, members, meta, day counts, allowances, charges, pending notifies",
    up(sql) {
      for (const s of BASELINE) sql.exec(s);
      initNoted(sql);
    },
  },
];

export function getMeta<T = string | number | null>(sql: SqlStorage, k: string): T | undefined {
  const row = sql.exec("SELECT v FROM meta WHERE k = ?", k).toArray()[0];
  return row ? (row.v as T) : undefined;
}

export function setMeta(sql: SqlStorage, k: string, v: string | number | null) {
  sql.exec("INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v", k, v);
}

/** Adds `n` to a numeric meta value (the room's counters). */
export function bump(sql: SqlStorage, k: string, n: number) {
  sql.exec("INSERT INTO meta (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = COALESCE(v, 0) + excluded.v", k, n);
}

export function toWire(r: StoredMessage): WireMessage {
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

const COLUMNS = "seq, sender_id, client_id, kind, body, gift_id, credits_charged, held, created_at";
/** Visible to a viewer: within the history limit, and held messages only to their sender. */
const VISIBLE = "created_at >= ? AND (held = 0 OR sender_id = ?)";

export function byClientId(sql: SqlStorage, senderId: string, clientId: string): StoredMessage | null {
  return (
    sql
      .exec<StoredMessage>(`SELECT ${COLUMNS} FROM messages WHERE sender_id = ? AND client_id = ?`, senderId, clientId)
      .toArray()[0] ?? null
  );
}

export function nextSeq(sql: SqlStorage): number {
  return (sql.exec<{ n: number }>("SELECT COALESCE(MAX(seq), 0) + 1 AS n FROM messages").one().n as number) ?? 1;
}

/** A send's message: false (nothing written) when its sender's client id is already stored. */
export function insertNew(sql: SqlStorage, m: StoredMessage): boolean {
  return writeMessage(sql, m, " ON CONFLICT (sender_id, client_id) DO NOTHING") > 0;
}

/** Rows moved in from D1 (the migration): a row already here (same number or client id) is left alone. */
export function importMessage(sql: SqlStorage, m: StoredMessage): boolean {
  return writeMessage(sql, m, " ON CONFLICT DO NOTHING") > 0;
}

function writeMessage(sql: SqlStorage, m: StoredMessage, onConflict: string): number {
  return sql.exec(
    `INSERT INTO messages (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)${onConflict}`,
    m.seq,
    m.sender_id,
    m.client_id,
    m.kind,
    m.body,
    m.gift_id,
    m.credits_charged,
    m.held,
    m.created_at,
  ).rowsWritten;
}

/** The last `limit` messages a viewer may see, oldest first. */
export function lastVisible(sql: SqlStorage, viewerId: string, cutoff: number, limit: number): WireMessage[] {
  return sql
    .exec<StoredMessage>(
      `SELECT * FROM (SELECT ${COLUMNS} FROM messages WHERE ${VISIBLE} ORDER BY seq DESC LIMIT ?) ORDER BY seq`,
      cutoff,
      viewerId,
      limit,
    )
    .toArray()
    .map(toWire);
}

/** Messages after number `afterSeq` a viewer may see (a reconnecting client resumes from its last id). */
export function visibleAfter(
  sql: SqlStorage,
  viewerId: string,
  afterSeq: number,
  cutoff: number,
  limit: number,
): WireMessage[] {
  return sql
    .exec<StoredMessage>(
      `SELECT ${COLUMNS} FROM messages WHERE ${VISIBLE} AND seq > ? ORDER BY seq LIMIT ?`,
      cutoff,
      viewerId,
      afterSeq,
      limit,
    )
    .toArray()
    .map(toWire);
}

export function olderExists(sql: SqlStorage, cutoff: number): boolean {
  return !!sql.exec<{ x: number }>("SELECT EXISTS(SELECT 1 FROM messages WHERE created_at < ?) AS x", cutoff).one().x;
}

/** Messages `seq - around` .. `seq + around` (the moderation view of a reported message). */
export function around(sql: SqlStorage, seq: number, n: number): StoredMessage[] {
  return sql
    .exec<StoredMessage>(`SELECT ${COLUMNS} FROM messages WHERE seq BETWEEN ? AND ? ORDER BY seq`, seq - n, seq + n)
    .toArray();
}

export function bySeq(sql: SqlStorage, seq: number): StoredMessage | null {
  return sql.exec<StoredMessage>(`SELECT ${COLUMNS} FROM messages WHERE seq = ?`, seq).toArray()[0] ?? null;
}

/** A message removed by a moderation decision: gone for both members (its copy is in the decision). */
export function deleteMessage(sql: SqlStorage, seq: number) {
  sql.exec("DELETE FROM messages WHERE seq = ?", seq);
}

export function bySender(sql: SqlStorage, senderId: string): StoredMessage[] {
  return sql
    .exec<StoredMessage>(`SELECT ${COLUMNS} FROM messages WHERE sender_id = ? ORDER BY seq`, senderId)
    .toArray();
}

export function heldOf(sql: SqlStorage, senderId: string): StoredMessage[] {
  return sql
    .exec<StoredMessage>(`SELECT ${COLUMNS} FROM messages WHERE sender_id = ? AND held = 1 ORDER BY seq`, senderId)
    .toArray();
}

export function unhold(sql: SqlStorage, senderId: string, upToSeq: number) {
  sql.exec("UPDATE messages SET held = 0 WHERE sender_id = ? AND held = 1 AND seq <= ?", senderId, upToSeq);
}

/** The last message anyone but its held sender sees: what the overview shows. */
export function lastShown(sql: SqlStorage): StoredMessage | null {
  return (
    sql
      .exec<StoredMessage>(
        `SELECT ${COLUMNS} FROM messages WHERE held = 0 AND kind != 'notice' ORDER BY seq DESC LIMIT 1`,
      )
      .toArray()[0] ?? null
  );
}

// ---------------------------------------------------------------------------------------------
// A team-run profile's conversation (decision 201): what the team's inbox needs, from the messages

export type TeamState = {
  /** The member's first shown message after the profile's last one (null: nothing waits). */
  waitingSince: number | null;
  waitingSeq: number | null;
  /** Credits the member spent here. */
  credits: number;
  /** The profile's first message here (null: never answered). */
  firstReplyAt: number | null;
  /** The oldest paid, unanswered message whose credits have not gone back (null: none). */
  refundFrom: number | null;
  creditsReturned: number;
};

/** The newest message of the team-run profile (its number, or one below every number: none). */
function lastReplySeq(sql: SqlStorage, profileId: string): number {
  const r = sql.exec<{ s: number | null }>("SELECT MAX(seq) AS s FROM messages WHERE sender_id = ?", profileId).one()
    .s as number | null;
  return r ?? Number.MIN_SAFE_INTEGER;
}

export function teamState(sql: SqlStorage, profileId: string, memberId: string): TeamState {
  const last = lastReplySeq(sql, profileId);
  const returned = Number(getMeta(sql, "team_returned_seq") ?? Number.MIN_SAFE_INTEGER);
  const due = sql
    .exec<{ at: number | null }>(
      "SELECT MIN(created_at) AS at FROM messages WHERE sender_id = ? AND held = 0 AND credits_charged > 0 AND seq > ?",
      memberId,
      Math.max(last, returned),
    )
    .one().at as number | null;
  const waiting = sql
    .exec<{ seq: number; created_at: number }>(
      "SELECT seq, created_at FROM messages WHERE sender_id = ? AND held = 0 AND seq > ? ORDER BY seq LIMIT 1",
      memberId,
      last,
    )
    .toArray()[0];
  const totals = sql
    .exec<{ credits: number; first: number | null }>(
      `SELECT (SELECT COALESCE(SUM(credits_charged), 0) FROM messages WHERE sender_id = ?) AS credits,
              (SELECT MIN(created_at) FROM messages WHERE sender_id = ?) AS first`,
      memberId,
      profileId,
    )
    .one();
  return {
    waitingSince: waiting?.created_at ?? null,
    waitingSeq: waiting?.seq ?? null,
    credits: Number(totals.credits),
    firstReplyAt: (totals.first as number | null) ?? null,
    refundFrom: due ?? null,
    creditsReturned: Number(getMeta(sql, "team_returned") ?? 0),
  };
}

/** The member's shown messages after the profile's last reply (what a reply now answers), oldest first. */
export function teamWaitingMessages(sql: SqlStorage, profileId: string, memberId: string): StoredMessage[] {
  return sql
    .exec<StoredMessage>(
      `SELECT ${COLUMNS} FROM messages WHERE sender_id = ? AND held = 0 AND seq > ? ORDER BY seq`,
      memberId,
      lastReplySeq(sql, profileId),
    )
    .toArray();
}

/**
 * The member's paid, shown messages after the profile's last reply, older than `before` and above
 * `afterSeq` (the ones whose credits have not gone back yet): what the reply window gives back.
 */
export function unansweredPaid(
  sql: SqlStorage,
  profileId: string,
  memberId: string,
  afterSeq: number,
  before: number,
): StoredMessage[] {
  return sql
    .exec<StoredMessage>(
      `SELECT ${COLUMNS} FROM messages WHERE sender_id = ? AND held = 0 AND credits_charged > 0 AND seq > ? AND created_at <= ?
         ORDER BY seq`,
      memberId,
      Math.max(afterSeq, lastReplySeq(sql, profileId)),
      before,
    )
    .toArray();
}

// ---------------------------------------------------------------------------------------------
// Read state and the overview

export function member(sql: SqlStorage, userId: string): MemberState | null {
  return sql.exec<MemberState>("SELECT * FROM members WHERE user_id = ?", userId).toArray()[0] ?? null;
}

export function members(sql: SqlStorage): MemberState[] {
  return sql.exec<MemberState>("SELECT * FROM members ORDER BY user_id").toArray();
}

export function putMember(sql: SqlStorage, m: Omit<MemberState, "dirty">, dirty = 1) {
  sql.exec(
    `INSERT INTO members (user_id, unread, hidden_at, last_activity_at, dirty) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET unread = excluded.unread, hidden_at = excluded.hidden_at,
       last_activity_at = excluded.last_activity_at, dirty = excluded.dirty`,
    m.user_id,
    m.unread,
    m.hidden_at,
    m.last_activity_at,
    dirty,
  );
}

/** `putMember` for several members in one statement (a send changes both). */
export function putMembers(sql: SqlStorage, ms: Omit<MemberState, "dirty">[]) {
  sql.exec(
    `INSERT INTO members (user_id, unread, hidden_at, last_activity_at, dirty) VALUES ${ms.map(() => "(?, ?, ?, ?, 1)").join(", ")}
     ON CONFLICT (user_id) DO UPDATE SET unread = excluded.unread, hidden_at = excluded.hidden_at,
       last_activity_at = excluded.last_activity_at, dirty = excluded.dirty`,
    ...ms.flatMap((m) => [m.user_id, m.unread, m.hidden_at, m.last_activity_at]),
  );
}

/**
 * The newest message the overview's meta (last message, `stat_messages`) has taken in: a send writes
 * neither, the coalesced overview write takes in what came since (decision 196). Rooms that wrote
 * them per message start from their newest message (part of the baseline migration).
 */
function initNoted(sql: SqlStorage) {
  sql.exec(
    "INSERT INTO meta (k, v) SELECT 'noted_seq', COALESCE(MAX(seq), 0) FROM messages WHERE 1 ON CONFLICT (k) DO NOTHING",
  );
}

/** Messages stored after `noted_seq`: how many, and the newest number (null: none). */
export function sinceNoted(sql: SqlStorage): { noted: number; top: number | null; n: number } {
  const noted = Number(getMeta(sql, "noted_seq") ?? 0);
  const r = sql
    .exec<{ top: number | null; n: number }>("SELECT MAX(seq) AS top, COUNT(*) AS n FROM messages WHERE seq > ?", noted)
    .one();
  return { noted, top: r.top, n: r.n };
}

/** Whether a message before `seq` was shown (not held). */
export function shownBefore(sql: SqlStorage, seq: number): boolean {
  return sql.exec("SELECT 1 FROM messages WHERE held = 0 AND seq < ? LIMIT 1", seq).toArray().length > 0;
}

export function addDayCount(sql: SqlStorage, brandId: number, day: number, n = 1) {
  sql.exec(
    "INSERT INTO day_counts (brand_id, day, n) VALUES (?, ?, ?) ON CONFLICT (brand_id, day) DO UPDATE SET n = n + excluded.n",
    brandId,
    day,
    n,
  );
}

export function dayCounts(sql: SqlStorage): { brand_id: number; day: number; n: number }[] {
  return sql.exec<{ brand_id: number; day: number; n: number }>("SELECT brand_id, day, n FROM day_counts").toArray();
}

/** After D1 took `flushed`: subtracts exactly that (messages counted meanwhile stay pending). */
export function subtractDayCounts(sql: SqlStorage, flushed: { brand_id: number; day: number; n: number }[]) {
  for (const c of flushed)
    sql.exec("UPDATE day_counts SET n = n - ? WHERE brand_id = ? AND day = ?", c.n, c.brand_id, c.day);
  sql.exec("DELETE FROM day_counts WHERE n <= 0");
}

/** Everything: account deletion of both members, or the conversation deleted in D1. */
export function wipe(sql: SqlStorage) {
  for (const t of ["messages", "members", "meta", "day_counts", "allowances", "charges", "pending_notify"])
    sql.exec(`DELETE FROM ${t}`);
}

// ---------------------------------------------------------------------------------------------
// Spending allowances (decision 193)

export type Allowance = {
  user_id: string;
  amount: number;
  grants: number;
  pending: string | null;
  returns: number;
  last_spend_at: number | null;
};

export function allowance(sql: SqlStorage, userId: string): Allowance {
  return (
    sql.exec<Allowance>("SELECT * FROM allowances WHERE user_id = ?", userId).toArray()[0] ?? {
      user_id: userId,
      amount: 0,
      grants: 0,
      pending: null,
      returns: 0,
      last_spend_at: null,
    }
  );
}

export function allowances(sql: SqlStorage): Allowance[] {
  return sql.exec<Allowance>("SELECT * FROM allowances WHERE amount > 0 OR pending IS NOT NULL").toArray();
}

function putAllowance(sql: SqlStorage, a: Allowance) {
  sql.exec(
    `INSERT INTO allowances (user_id, amount, grants, pending, returns, last_spend_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET amount = excluded.amount, grants = excluded.grants, pending = excluded.pending,
       returns = excluded.returns, last_spend_at = excluded.last_spend_at`,
    a.user_id,
    a.amount,
    a.grants,
    a.pending,
    a.returns,
    a.last_spend_at,
  );
}

/** Numbers the next grant and records it as asked (before the call, so a lost answer is asked again by its key). */
export function askGrant(sql: SqlStorage, conversationId: string, userId: string): string {
  const a = allowance(sql, userId);
  const key = `allowance:${conversationId}:${userId}:${a.grants + 1}`;
  putAllowance(sql, { ...a, grants: a.grants + 1, pending: key });
  return key;
}

/** The answer to grant `key` arrived: what it granted is the room's to spend. */
export function granted(sql: SqlStorage, userId: string, key: string, amount: number) {
  const a = allowance(sql, userId);
  if (a.pending !== key) return;
  putAllowance(sql, { ...a, amount: a.amount + amount, pending: null });
}

/**
 * A message's charge from the allowance (inside the message's transaction): false when it does not
 * cover it. One guarded UPDATE (no read first): `amount >= ?` is the check, `changes` the answer.
 */
export function spend(
  sql: SqlStorage,
  c: { userId: string; key: string; credits: number; reason: string; refId: string; at: number },
): boolean {
  const spent = sql.exec(
    "UPDATE allowances SET amount = amount - ?, last_spend_at = ? WHERE user_id = ? AND amount >= ?",
    c.credits,
    c.at,
    c.userId,
    c.credits,
  ).rowsWritten;
  if (spent === 0) return false;
  addCharge(sql, { ...c, kind: "charge" });
  return true;
}

/** A charge or return for the wallet, kept until it confirms it (`settled`). */
function addCharge(
  sql: SqlStorage,
  c: {
    key: string;
    userId: string;
    kind: ChargeRow["kind"];
    credits: number;
    reason: string | null;
    refId: string | null;
    at: number;
  },
) {
  sql.exec(
    "INSERT INTO charges (key, user_id, kind, credits, reason, ref_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    c.key,
    c.userId,
    c.kind,
    c.credits,
    c.reason,
    c.refId,
    c.at,
  );
}

/** Gives the whole allowance back (a keyed return row, sent with the charges); answers the amount. */
export function giveBack(sql: SqlStorage, conversationId: string, userId: string, at: number): number {
  const a = allowance(sql, userId);
  if (a.amount === 0) return 0;
  const key = `allowance-return:${conversationId}:${userId}:${a.returns + 1}`;
  putAllowance(sql, { ...a, amount: 0, returns: a.returns + 1 });
  addCharge(sql, { key, userId, kind: "return", credits: a.amount, reason: null, refId: null, at });
  return a.amount;
}

export type ChargeRow = {
  key: string;
  kind: "charge" | "return";
  credits: number;
  reason: string | null;
  ref_id: string | null;
  created_at: number;
};

/** The charges and returns of `userId` the wallet has not confirmed, oldest first. */
export function unsettled(sql: SqlStorage, userId: string): ChargeRow[] {
  return sql
    .exec<ChargeRow>(
      "SELECT key, kind, credits, reason, ref_id, created_at FROM charges WHERE user_id = ? ORDER BY rowid",
      userId,
    )
    .toArray();
}

export function settled(sql: SqlStorage, keys: string[]) {
  for (const k of keys) sql.exec("DELETE FROM charges WHERE key = ?", k);
}

/** Members with charges or returns the wallet has not confirmed. */
export function unsettledMembers(sql: SqlStorage): string[] {
  return sql
    .exec<{ user_id: string }>("SELECT DISTINCT user_id FROM charges")
    .toArray()
    .map((r) => r.user_id);
}

/** A hub notify for `receiverId` waiting for the next overview write (the room's pendingNotify). */
export type PendingNotify = { receiver_id: string; sender_id: string; v: number };

/** The room's pending hub notifies, in its storage: the Map-like face the room uses (set, list, done). */
export function pendingNotifies(sql: SqlStorage) {
  return {
    set(receiverId: string, senderId: string) {
      sql.exec(
        "INSERT INTO pending_notify (receiver_id, sender_id, v) VALUES (?, ?, 1) ON CONFLICT (receiver_id) DO UPDATE SET sender_id = excluded.sender_id, v = v + 1",
        receiverId,
        senderId,
      );
    },
    list(): PendingNotify[] {
      return sql.exec<PendingNotify>("SELECT receiver_id, sender_id, v FROM pending_notify").toArray();
    },
    /** Sent: gone, unless set again meanwhile (a newer message waits for the next write). */
    done(sent: PendingNotify[]) {
      for (const p of sent) sql.exec("DELETE FROM pending_notify WHERE receiver_id = ? AND v = ?", p.receiver_id, p.v);
    },
  };
}
