/**
 * ChatRoom: one Durable Object per conversation (idFromName(conversationId)), and the home of its
 * messages (decision 190): numbers, client ids, held flags, gifts and each member's read state live
 * in the object's own SQLite (app/chat/store.ts, its schema versioned: decision 230). Every send
 * passes through here, live (WebSocket) or not (RPC from a form action), one at a time, in three
 * steps (decision 230): check (the rules: D1 reads, cached until told they changed), commit (the
 * message and its charge in one transaction: spent from the sender's allowance held here, decision
 * 193; the wallet is asked for a block only when it runs out), after-commit (the broadcast, then D1,
 * coalesced: the overview (`conversations`, `conversation_members`) at once when a conversation
 * starts, an unread count goes 0 -> 1, a member reads or hides, otherwise by an alarm at most once
 * per OVERVIEW_DELAY_MS). Sockets use the Hibernation API; who a socket belongs to travels in its
 * serialized attachment. The worker tests run a subclass with their hooks (tests/worker/worker-main.ts).
 */
import { scheduleRestore, type RestoreAnswer, type RestoreTarget } from "./restore";
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../lib/env";
import type { ChatRoomApi, RoomCharge, RoomHistory, RoomStats, SentByRow, TeamWaiting } from "./rpc";
import {
  CONVERSATION_HEADER,
  MEMBER_HEADER,
  PING,
  PONG,
  PRICES_HEADER,
  SESSION_HEADER,
  parseClientFrame,
  type ChatPrices,
  type SendError,
  type SendInput,
  type SendResult,
  type ServerFrame,
  type WireMessage,
} from "./protocol";
import { closeRevoked, closeSocketsOfRevokedSessions, type SocketSession } from "./revoked";
import {
  PAGE_MESSAGES,
  d1MessagesPage,
  deleteD1Messages,
  historyCutoff,
  messageContent,
  previewOf,
  roomConversation,
  sendRules,
  sendVerdict,
  writeOverview,
  type SendRules,
  type SendVerdict,
} from "../models/chat.server";
import { notifyMember } from "../models/hub.server";
import { applyCredits } from "../wallet/wallet.server";
import { countEvent } from "../lib/metrics.server";
import { enqueue } from "../models/notify-queue";
import { SIGNALS, checkMessage } from "../models/signals.server";
import { logError } from "../lib/log.server";
import { nowS } from "../lib/dates";
import { migrateObjectSchema } from "../lib/object-schema";
import * as store from "./store";
import { ALLOWANCE_IDLE_S, ALLOWANCE_MESSAGES, reserve, settleWith, toRoomCharge } from "./charge";

type Attachment = SocketSession & { memberId: string; conversationId: string; prices: ChatPrices };

/** The longest the D1 overview lags behind the room when nothing makes it urgent. */
export const OVERVIEW_DELAY_MS = 3000;
/** Cached rules are re-read after this even without being told (a brand's message length, say). */
const RULES_TTL_MS = 60_000;
const DAY = 86_400;
/** Thrown inside a send's transaction to roll its message back when the allowance does not cover it. */
const SHORT = Symbol("short");

type Conversation = { id: string; memberA: string; memberB: string };
type Answer = { result: SendResult; overview?: Promise<void> };
/** A send that passed its check: what commit() stores and after-commit announces. */
type CheckedSend = {
  i: SendInput;
  c: Conversation;
  receiverId: string;
  body: string;
  giftId: string | null;
  rules: SendRules;
  verdict: Extract<SendVerdict, { ok: true }>;
};
/** A committed send: its row, and what its transaction changed that after-commit acts on. */
type CommittedSend = {
  row: store.StoredMessage;
  urgent: boolean;
  firstUnread: boolean;
  /** Held messages of the sender released before this one (their receiver is notified at once). */
  releasedBefore: boolean;
};

export class ChatRoom extends DurableObject<Env> implements ChatRoomApi {
  /*
   * What the room keeps in memory, beside its SQLite (the truth) and D1 (the rules, the overview):
   *
   * | field          | a copy of                                   | dropped or updated by                                |
   * | -------------- | ------------------------------------------- | ---------------------------------------------------- |
   * | conversation   | meta conversation_id, member_a, member_b    | wipe()                                               |
   * | rules          | D1: sendRules() per sender and session      | forget(), release(), closeRevoked(), wipe(); TTL     |
   * | seqNext        | MAX(messages.seq) + 1                       | a commit or a notice (+1), importFromD1(), wipe()    |
   * | noneHeld       | "no held message of this sender" per sender | a held commit (that sender), importFromD1(), wipe()  |
   * | memberCache    | the members table (both read states)        | putMember() (any write but a send's), wipe(); a      |
   * |                |                                             | commit writes its own change into it                 |
   * | shownBefore    | "a message was shown here" (only turns on)  | wipe()                                               |
   * | notifyMarked   | pending_notify rows not yet written to D1   | each overview write, wipe(); lost on restart (safe:  |
   * |                |                                             | the next message writes its row again)               |
   * | alarmAt        | the overview alarm this instance set        | scheduleFlush() sets it, alarm() clears it           |
   *
   * And what coordinates the work (not copies of anything): `queue` (sends, imports and connects one
   * at a time), `flushing`/`again` (one overview write at a time, the newest state wins), `reserving`
   * and `settling` (one wallet call per member), `background` (work after an answer).
   */
  private conversation: Conversation | null = null;
  private rules = new Map<string, { at: number; rules: SendRules }>();
  private seqNext: number | null = null;
  private noneHeld = new Set<string>();
  private memberCache: Map<string, store.MemberState> | null = null;
  private shownBefore = false;
  private notifyMarked = new Map<string, string>();
  private alarmAt: number | null = null;

  private queue: Promise<unknown> = Promise.resolve();
  protected flushing: Promise<void> | null = null;
  private again = false;
  /** Members whose allowance a send is topping up right now (its grant's answer is on its way). */
  private reserving = new Set<string>();
  /** Per member, the send of their charges to the wallet in flight (one at a time). */
  private settling = new Map<string, Promise<void>>();
  /** Work that runs after the answer (notifications, mail, the overview). */
  protected background = new Set<Promise<unknown>>();

  private sql: SqlStorage;
  /** Receivers to notify (hub) once their coalesced unread count reached D1; in storage, sent after a restart too. */
  private pendingNotify: ReturnType<typeof store.pendingNotifies>;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.pendingNotify = store.pendingNotifies(this.sql);
    // Nothing reaches the object before its storage is at this code's schema version.
    void ctx.blockConcurrencyWhile(async () => {
      migrateObjectSchema(ctx.storage, store.ROOM_MIGRATIONS);
    });
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
  }

  /** A wipe: every copy in memory goes with what it copied. */
  private dropCaches() {
    this.conversation = null;
    this.rules.clear();
    this.seqNext = null;
    this.noneHeld.clear();
    this.memberCache = null;
    this.shownBefore = false;
    this.notifyMarked.clear();
  }

  private later(work: Promise<unknown>) {
    const tracked = work.finally(() => this.background.delete(tracked));
    this.background.add(tracked);
    this.ctx.waitUntil(tracked);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  // -------------------------------------------------------------------------------------------
  // Opening: which conversation this is, and its messages moved in from D1 the first time

  /**
   * The conversation this object is, checked against the name it was reached by; the first time,
   * read from D1 with the members' overview, and any messages D1 still holds moved in (the
   * migration, lazily: serialized with sends, so safe while members chat). Null: no such conversation.
   */
  private async open(conversationId: string): Promise<Conversation | null> {
    if (this.conversation) return this.conversation.id === conversationId ? this.conversation : null;
    const known = store.getMeta<string>(this.sql, "conversation_id");
    if (known !== undefined) {
      if (known !== conversationId) return null;
      this.conversation = {
        id: known,
        memberA: store.getMeta<string>(this.sql, "member_a")!,
        memberB: store.getMeta<string>(this.sql, "member_b")!,
      };
      return this.conversation;
    }
    if (!conversationId || conversationId.length > 64) return null;
    // Only the object of that name may become that conversation (a caller's mix-up stores nothing).
    if (!this.ctx.id.equals(this.env.CHAT_ROOM.idFromName(conversationId))) return null;
    const c = await roomConversation(this.env.DB, conversationId);
    if (!c) return null;
    this.ctx.storage.transactionSync(() => {
      for (const m of c.members)
        this.putMember(
          { user_id: m.userId, unread: m.unread, hidden_at: m.hiddenAt, last_activity_at: m.lastActivityAt },
          0,
        );
      store.setMeta(this.sql, "last_message_at", c.lastMessageAt);
      store.setMeta(this.sql, "last_message_preview", c.lastMessagePreview);
      store.setMeta(this.sql, "member_a", c.memberA);
      store.setMeta(this.sql, "member_b", c.memberB);
      for (const m of c.members) store.setMeta(this.sql, `brand:${m.userId}`, m.brandId);
      store.setMeta(this.sql, "conversation_id", conversationId);
    });
    this.conversation = { id: conversationId, memberA: c.memberA, memberB: c.memberB };
    await this.importFromD1(conversationId);
    return this.conversation;
  }

  /** Moves in what D1 still holds of this conversation (idempotent); answers the highest D1 row id seen. */
  private async importFromD1(conversationId: string): Promise<{ maxId: number; rows: number }> {
    let after = 0;
    let rows = 0;
    for (;;) {
      const page = await d1MessagesPage(this.env.DB, conversationId, after);
      if (page.length === 0) break;
      this.ctx.storage.transactionSync(() => {
        for (const r of page) {
          const moved = store.importMessage(this.sql, {
            ...r,
            // Rows written before numbers existed carry 0: they keep their order, before the numbered ones.
            seq: r.seq > 0 ? r.seq : -r.id,
            held: r.held ? 1 : 0,
          });
          // The dashboard's count (chat_message_days) takes the moved messages too, once.
          const brand = store.getMeta<number>(this.sql, `brand:${r.sender_id}`);
          if (moved && brand != null) store.addDayCount(this.sql, brand, Math.floor(r.created_at / DAY));
        }
      });
      rows += page.length;
      after = page[page.length - 1]!.id;
    }
    if (rows > 0) {
      this.seqNext = null;
      this.noneHeld.clear();
      this.scheduleFlush();
    }
    return { maxId: after, rows };
  }

  /** Every write of a member's state but a send's goes through here: the send's cache is dropped. */
  private putMember(m: Omit<store.MemberState, "dirty">, dirty = 1) {
    this.memberCache = null;
    store.putMember(this.sql, m, dirty);
  }

  private isMember(c: Conversation, memberId: string) {
    return memberId === c.memberA || memberId === c.memberB;
  }

  private otherOf(c: Conversation, memberId: string) {
    return memberId === c.memberA ? c.memberB : c.memberA;
  }

  // -------------------------------------------------------------------------------------------
  // Sockets

  /** The WebSocket upgrade, forwarded by the Worker after it authenticated the member. */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket")
      return new Response("Expected a WebSocket", { status: 426 });
    const memberId = request.headers.get(MEMBER_HEADER);
    const conversationId = request.headers.get(CONVERSATION_HEADER);
    const sessionHash = request.headers.get(SESSION_HEADER);
    const prices = parsePrices(request.headers.get(PRICES_HEADER));
    if (!memberId || !conversationId || !sessionHash || !prices) return new Response("Forbidden", { status: 403 });
    const after = Math.max(0, Number(new URL(request.url).searchParams.get("after")) || 0);
    const { 0: client, 1: server } = new WebSocketPair();
    // Backlog and accept happen inside the queue: no message can be stored between the two, so the
    // client gets every message once from the backlog or live (and dedupes by id anyway).
    const backlog = await this.serial(async () => {
      const c = await this.open(conversationId);
      if (!c || !this.isMember(c, memberId)) return null;
      const messages = store.visibleAfter(this.sql, memberId, after, historyCutoff(3650), PAGE_MESSAGES);
      const other = store.member(this.sql, this.otherOf(c, memberId));
      this.ctx.acceptWebSocket(server, [memberId]);
      server.serializeAttachment({ memberId, conversationId, sessionHash, prices } satisfies Attachment);
      return { type: "backlog", messages, otherUnread: other?.unread ?? 0 } satisfies ServerFrame;
    });
    if (!backlog) return new Response("Not found", { status: 404 });
    server.send(JSON.stringify(backlog));
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, raw: string | ArrayBuffer) {
    const frame = parseClientFrame(raw);
    const who = ws.deserializeAttachment() as Attachment | null;
    if (!frame || !who) return;
    switch (frame.type) {
      case "send":
      case "gift": {
        // The send is refused once the socket's session is revoked or expired.
        const base = {
          conversationId: who.conversationId,
          senderId: who.memberId,
          prices: who.prices,
          clientId: frame.clientId,
          sessionHash: who.sessionHash ?? "",
        };
        const input: SendInput =
          frame.type === "send"
            ? { ...base, kind: "text", body: frame.body }
            : { ...base, kind: "gift", giftId: frame.giftId };
        const { result, overview } = await this.serial(() => this.sendOne(input));
        // The sender's ack does not wait for D1 either.
        if (overview) this.later(overview);
        if (!result.ok && result.error === "session") return closeRevoked(ws);
        safeSend(
          ws,
          result.ok
            ? { type: "ack", clientId: frame.clientId, message: result.message }
            : { type: "error", clientId: frame.clientId, error: result.error },
        );
        return;
      }
      case "typing":
        this.broadcast({ type: "typing", memberId: who.memberId, typing: frame.typing }, (m) => m !== who.memberId);
        return;
      case "read":
        await this.read(who.conversationId, who.memberId);
        return;
    }
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string) {
    // 1005 (no status) and 1006 (abnormal) are reserved: they cannot be sent in a close frame.
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // Already closed.
    }
    const who = ws.deserializeAttachment() as Attachment | null;
    if (who && !this.isOnline(who.memberId, ws)) {
      this.broadcast({ type: "typing", memberId: who.memberId, typing: false }, (m) => m !== who.memberId);
    }
  }

  async webSocketError(ws: WebSocket) {
    try {
      ws.close(1011, "error");
    } catch {
      // Already closed.
    }
  }

  // -------------------------------------------------------------------------------------------
  // Sending: check -> commit -> after-commit, one send at a time (inside serial())

  /**
   * RPC: sends a message (form posts call this; the WebSocket path too), then broadcasts it. Answers
   * once the overview is in D1 when the message made it urgent, so the page a form redirects to
   * shows it (the socket path does not wait).
   */
  async send(input: SendInput): Promise<SendResult> {
    const { result, overview } = await this.serial(() => this.sendOne(input));
    if (overview) await overview;
    return result;
  }

  /**
   * One send. `overview` is the D1 write it made urgent, if any (run outside the queue; everything
   * else after the answer is background work).
   */
  private async sendOne(i: SendInput): Promise<Answer> {
    const checked = await this.check(i);
    if ("result" in checked) return checked;
    const committed = await this.commit(checked);
    if ("result" in committed) return committed;
    return this.afterCommit(checked, committed);
  }

  /**
   * Check: may this send be stored, and how? Reads only (the conversation and the rules, from memory
   * or D1 once); a refusal answers the stored message instead when the send is a retry of one.
   */
  private async check(i: SendInput): Promise<CheckedSend | { result: SendResult }> {
    const refuse = (error: SendError) => ({ result: { ok: false, error } as SendResult });
    const content = messageContent(i);
    if (typeof content === "string") return refuse(content);
    const c = await this.open(i.conversationId);
    if (!c || !this.isMember(c, i.senderId)) return refuse("not_found");
    const receiverId = this.otherOf(c, i.senderId);
    const rules = await this.rulesFor(i.senderId, receiverId, i.sessionHash ?? null);
    if (!rules) return refuse("not_found");
    const verdict = sendVerdict(rules, i, content.body, receiverId);
    if (!verdict.ok) {
      if (verdict.error === "session") return refuse("session");
      // A retried client id answers its stored message. The common send does not look it up (the
      // insert finds it); only a refusal looks first.
      return this.earlier(i, receiverId) ?? refuse(verdict.error);
    }
    return { i, c, receiverId, body: content.body, giftId: content.giftId, rules, verdict };
  }

  /** The rules of a send, from the cache or one D1 read. */
  private async rulesFor(senderId: string, otherId: string, sessionHash: string | null): Promise<SendRules | null> {
    const key = `${senderId}:${sessionHash ?? ""}`;
    const hit = this.rules.get(key);
    if (hit && Date.now() - hit.at < RULES_TTL_MS) return hit.rules;
    const rules = await sendRules(this.env.DB, senderId, otherId, sessionHash);
    if (rules) this.rules.set(key, { at: Date.now(), rules });
    return rules;
  }

  /** The stored message of a retried send (same sender and client id), as a send's answer; null: none. */
  private earlier(i: SendInput, receiverId: string): { result: SendResult } | null {
    const m = store.byClientId(this.sql, i.senderId, i.clientId);
    if (!m) return null;
    const message = store.toWire(m);
    return { result: { ok: true, message, duplicate: true, receiverId, firstUnread: false, cost: 0 } };
  }

  /**
   * Commit: the message, its charge and the room's overview in one SQLite transaction (neither
   * exists without the other). The allowance is topped up from the wallet only when it runs short
   * (the only await). On success the caches take what the transaction wrote.
   */
  private async commit(s: CheckedSend): Promise<CommittedSend | { result: SendResult }> {
    const { i, c, receiverId, verdict } = s;
    const { cost, held } = verdict;
    // A confirmed sender with messages still held here (their release could not reach this room):
    // released now, before the new one, so the order stays the sending order.
    const releasedBefore = !s.rules.held && this.unholdAll(c, i.senderId) !== null;
    if (releasedBefore) this.pendingNotify.set(receiverId, i.senderId);
    const seq = (this.seqNext ??= store.nextSeq(this.sql));
    let row!: store.StoredMessage;
    // "duplicate": the client id is stored already (nothing written); "short": the allowance does not
    // cover it (rolled back).
    const attempt = () => {
      const now = nowS();
      row = {
        seq,
        sender_id: i.senderId,
        client_id: i.clientId,
        kind: i.kind,
        body: s.body,
        gift_id: s.giftId,
        credits_charged: cost,
        held: held ? 1 : 0,
        created_at: now,
      };
      // The key is the send itself (conversation, sender, client id): charged once whatever crashes or retries.
      const charge = {
        userId: i.senderId,
        key: `message:${c.id}:${i.senderId}:${i.clientId}`,
        // The ledger names the message by its number in the conversation, never a site-wide id (decision 089).
        refId: `message:${c.id}:${seq}`,
        credits: cost,
        reason: i.kind === "gift" ? "gift" : "message",
        at: now,
      };
      try {
        return this.ctx.storage.transactionSync(() => {
          if (!store.insertNew(this.sql, row)) return "duplicate" as const;
          if (cost > 0 && !store.spend(this.sql, charge)) throw SHORT;
          const after = this.overviewOfSend(c, row, s.rules.brandId, verdict.teamProfile);
          if (!held && this.notifyMarked.get(receiverId) !== i.senderId) this.pendingNotify.set(receiverId, i.senderId);
          return after;
        });
      } catch (e) {
        if (e === SHORT) return "short" as const;
        throw e;
      }
    };
    let stored: ReturnType<typeof attempt>;
    try {
      stored = attempt();
      if (stored === "short") {
        // (Not a retry: the insert went through before the allowance fell short.)
        if (!(await this.cover(c.id, i.senderId, cost, i.prices.message)))
          return { result: { ok: false, error: "credits", cost } };
        stored = attempt();
      }
    } catch (e) {
      // Nothing was charged or stored; the member may send again.
      logError("chat.store_failed", e, { conversationId: c.id, memberId: i.senderId });
      return { result: { ok: false, error: "generic" } };
    }
    if (stored === "duplicate") return this.earlier(i, receiverId) ?? { result: { ok: false, error: "generic" } };
    // Covered a moment ago and sends run one at a time: short again means the allowance is broken.
    if (stored === "short") return { result: { ok: false, error: "credits", cost } };
    const { urgent, firstUnread, put } = stored;
    if (!held) {
      this.notifyMarked.set(receiverId, i.senderId);
      this.shownBefore = true;
    }
    this.seqNext = seq + 1;
    // The cache takes what the transaction wrote (a rolled-back one leaves it as it was).
    for (const m of put) this.memberCache?.set(m.user_id, { ...m, dirty: 1 });
    if (held) this.noneHeld.delete(i.senderId);
    return { row, urgent, firstUnread, releasedBefore };
  }

  /**
   * After-commit: the message reaches the screens, then the overview (at once when urgent), the
   * receiver's mail or push, the scam signals. Nothing here can undo the send.
   */
  private afterCommit(s: CheckedSend, d: CommittedSend): Answer {
    const { i, c, receiverId } = s;
    const { cost, held } = s.verdict;
    const { row, firstUnread } = d;
    countEvent(this.env, "message");
    const message = store.toWire(row);
    // A held message is only shown to its sender until their address is confirmed.
    this.broadcast({ type: "message", message }, (m) => !held || m === i.senderId);
    const overview = d.urgent || d.releasedBefore ? this.flush() : (this.scheduleFlush(), undefined);
    // The charge reaches the wallet's ledger by the alarm (or sooner, when the wallet reads).
    if (cost > 0) this.scheduleFlush();
    // Mail and push (app/models/notify.server.ts) for a receiver not in this conversation, once per unread burst.
    if (!held && firstUnread && !this.isOnline(receiverId)) {
      // After the overview write: the consumer checks D1's unread count before it mails.
      this.later(
        (overview ?? Promise.resolve()).then(() =>
          enqueue(this.env, {
            kind: "message",
            conversationId: c.id,
            senderId: i.senderId,
            receiverId,
            messageId: row.seq,
          }),
        ),
      );
    }
    // Scam and spam signals (decision 176): after the answer; they may open a case, never restrict.
    // Only a conversation's first messages can flag (checkMessage's own test): later ones start no work.
    if (message.kind === "text" && row.seq <= SIGNALS.firstMessages)
      this.later(
        checkMessage(this.env, {
          ...message,
          kind: "text",
          seq: row.seq,
          senderId: i.senderId,
          conversationId: c.id,
        }).catch((e) => logError("signals.check_failed", e, { conversationId: c.id })),
      );
    return { result: { ok: true, message, duplicate: false, receiverId, firstUnread, cost }, overview };
  }

  /**
   * Inside a send's transaction: the members' read state, the day count and the team's inbox row
   * after the stored message. Urgent, i.e. written to D1 at once: the conversation's first shown
   * message, the receiver's unread count going 0 -> 1, or a chat hidden by either member shown again.
   * (Protected: the worker tests' subclass fails a commit here, inside the transaction.)
   */
  protected overviewOfSend(c: Conversation, row: store.StoredMessage, brandId: number, teamProfile: string | null) {
    const now = row.created_at;
    const receiverId = this.otherOf(c, row.sender_id);
    // Few statements: each costs on the send's path (both members read once, then from memory; one write).
    const both = (this.memberCache ??= new Map(store.members(this.sql).map((m) => [m.user_id, m])));
    const sender = both.get(row.sender_id);
    const receiver = both.get(receiverId);
    let urgent = sender?.hidden_at != null;
    const put: Omit<store.MemberState, "dirty">[] = [
      { user_id: row.sender_id, unread: sender?.unread ?? 0, hidden_at: null, last_activity_at: now },
    ];
    let firstUnread = false;
    if (!row.held) {
      const unread = (receiver?.unread ?? 0) + 1;
      firstUnread = unread === 1;
      urgent ||= firstUnread || receiver?.hidden_at != null;
      put.push({ user_id: receiverId, unread, hidden_at: null, last_activity_at: now });
      // The conversation's first shown message (D1 had one, or the room has one before this).
      this.shownBefore ||= store.getMeta(this.sql, "last_message_at") != null || store.shownBefore(this.sql, row.seq);
      urgent ||= !this.shownBefore;
    }
    store.putMembers(this.sql, put);
    store.addDayCount(this.sql, brandId, Math.floor(now / DAY));
    if (teamProfile) {
      // Held messages too: their release (unholdAll) then knows this is a team-run profile's conversation.
      store.setMeta(this.sql, "team_profile", teamProfile);
      if (!row.held) urgent = this.teamChanged(teamProfile, row.sender_id !== teamProfile) || urgent;
    }
    return { urgent, firstUnread, put };
  }

  /**
   * A shown message in a team-run profile's conversation (decision 201): the team's inbox row is
   * written with the next overview, at once when the member starts or stops waiting (the inbox shows
   * a new wait, and a reply takes it off, without the coalescing delay). True: urgent.
   */
  private teamChanged(profileId: string, waiting: boolean): boolean {
    store.bump(this.sql, "team_v", 1);
    const was = !!store.getMeta(this.sql, "team_waiting");
    store.setMeta(this.sql, "team_waiting", waiting ? 1 : 0);
    return was !== waiting;
  }

  // -------------------------------------------------------------------------------------------
  // The overview in D1, coalesced

  /** Writes the overview now (after any write in flight); resolves once D1 has it. Never rejects. */
  private flush(): Promise<void> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    const run = (async () => {
      do {
        this.again = false;
        try {
          await this.writeOnce();
        } catch (e) {
          // The alarm tries again; the room keeps the state.
          logError("chat.overview_failed", e, { conversationId: this.conversation?.id });
          this.scheduleFlush();
          break;
        }
      } while (this.again);
    })();
    this.flushing = run.finally(() => (this.flushing = null));
    return this.flushing;
  }

  /** The messages stored since the last overview write taken into its meta (once per write, not per send). */
  private noteMessages() {
    this.ctx.storage.transactionSync(() => {
      const { noted, top, n } = store.sinceNoted(this.sql);
      if (top === null) return;
      const shown = store.lastShown(this.sql);
      if (shown && shown.seq > noted) {
        store.setMeta(this.sql, "last_message_at", shown.created_at);
        store.setMeta(this.sql, "last_message_preview", previewOf(shown.kind, shown.body, shown.gift_id));
        store.setMeta(this.sql, "conversation_dirty", 1);
      }
      store.bump(this.sql, "stat_messages", n);
      store.setMeta(this.sql, "noted_seq", top);
    });
  }

  private async writeOnce() {
    const conversationId = this.conversation?.id ?? store.getMeta<string>(this.sql, "conversation_id");
    if (!conversationId) return;
    this.noteMessages();
    const dirtyConversation = !!store.getMeta(this.sql, "conversation_dirty");
    const lastMessageAt = store.getMeta<number | null>(this.sql, "last_message_at") ?? null;
    const lastMessagePreview = store.getMeta<string | null>(this.sql, "last_message_preview") ?? null;
    const members = store.members(this.sql).filter((m) => m.dirty);
    const days = store.dayCounts(this.sql);
    const notify = this.pendingNotify.list();
    this.notifyMarked.clear();
    const team = this.teamWrite();
    if (!dirtyConversation && members.length === 0 && days.length === 0 && notify.length === 0 && !team) return;
    const written = await writeOverview(this.env.DB, conversationId, {
      conversation: dirtyConversation ? { lastMessageAt, lastMessagePreview } : null,
      members: members.map((m) => ({
        userId: m.user_id,
        unread: m.unread,
        hiddenAt: m.hidden_at,
        lastActivityAt: m.last_activity_at,
      })),
      days: days.map((d) => ({ brandId: d.brand_id, day: d.day, n: d.n })),
      team: team?.row ?? null,
    });
    // Clean only what is still what was written: a message stored meanwhile keeps its row dirty.
    this.ctx.storage.transactionSync(() => {
      store.bump(this.sql, "stat_overview_writes", 1);
      store.bump(this.sql, "stat_d1_rows_written", written);
      if (dirtyConversation && store.getMeta(this.sql, "last_message_at") === lastMessageAt)
        store.setMeta(this.sql, "conversation_dirty", 0);
      for (const m of members) {
        const now = store.member(this.sql, m.user_id);
        if (
          now &&
          now.unread === m.unread &&
          now.hidden_at === m.hidden_at &&
          now.last_activity_at === m.last_activity_at
        )
          this.putMember(now, 0);
      }
      store.subtractDayCounts(this.sql, days);
      this.pendingNotify.done(notify);
      if (team) store.setMeta(this.sql, "team_written_v", team.v);
    });
    // The receivers' badges, now that D1 (what their tabs re-fetch) has the count.
    for (const p of notify)
      this.later(notifyMember(this.env, p.receiver_id, { kind: "message", conversationId, senderId: p.sender_id }));
  }

  /** The team's inbox row when it changed since the last write (a team-run profile's conversation only). */
  private teamWrite() {
    const profileId = store.getMeta<string>(this.sql, "team_profile");
    if (!profileId) return null;
    const v = Number(store.getMeta(this.sql, "team_v") ?? 0);
    if (v === Number(store.getMeta(this.sql, "team_written_v") ?? 0)) return null;
    const a = store.getMeta<string>(this.sql, "member_a")!;
    const memberId = profileId === a ? store.getMeta<string>(this.sql, "member_b")! : a;
    const brandId = store.getMeta<number>(this.sql, `brand:${profileId}`) ?? 0;
    return { v, row: { brandId, profileId, memberId, ...store.teamState(this.sql, profileId, memberId) } };
  }

  private scheduleFlush() {
    if (this.alarmAt !== null) return;
    this.alarmAt = Date.now() + OVERVIEW_DELAY_MS;
    this.later(
      this.ctx.storage.getAlarm().then((existing) => {
        const at = this.alarmAt ?? Date.now() + OVERVIEW_DELAY_MS;
        // An allowance's later idle alarm must not delay the overview.
        if (existing === null || existing > at) return this.ctx.storage.setAlarm(at);
      }),
    );
  }

  async alarm() {
    this.alarmAt = null;
    await this.flush();
    await this.allowancesDue();
  }

  // -------------------------------------------------------------------------------------------
  // Spending allowances (decision 193)

  /**
   * Inside the queue: the member's allowance here covers `cost`, asking their wallet for a block
   * (ALLOWANCE_MESSAGES messages' price) when it does not. A grant asked before whose answer never
   * came (a crash) is asked again by its key first, so it is counted once. False: the wallet's free
   * credits (after the member's other rooms gave theirs back) do not cover it.
   */
  private async cover(conversationId: string, userId: string, cost: number, perMessage: number): Promise<boolean> {
    for (let tries = 0; tries < 3; tries++) {
      const a = store.allowance(this.sql, userId);
      if (!a.pending && a.amount >= cost) return true;
      const key = a.pending ?? this.ctx.storage.transactionSync(() => store.askGrant(this.sql, conversationId, userId));
      const need = a.pending ? 0 : cost - a.amount;
      const want = a.pending ? 0 : Math.max(need, ALLOWANCE_MESSAGES * perMessage);
      this.reserving.add(userId);
      try {
        const r = await reserve(this.env, userId, conversationId, key, need, want);
        this.ctx.storage.transactionSync(() => store.granted(this.sql, userId, key, r.ok ? r.amount : 0));
        // Refused: another room took the credits its return freed; asked again (bounded), it gives them back.
        if (!r.ok && tries === 2) return false;
        // What was granted goes back after ALLOWANCE_IDLE_S unspent (the alarm).
        if (r.ok) this.scheduleFlush();
      } finally {
        this.reserving.delete(userId);
      }
    }
    return store.allowance(this.sql, userId).amount >= cost;
  }

  /** Sends the member's unconfirmed charges and returns to their wallet; one send at a time per member. */
  private settle(userId: string): Promise<void> {
    const conversationId = store.getMeta<string>(this.sql, "conversation_id");
    const run = (this.settling.get(userId) ?? Promise.resolve()).then(async () => {
      const rows = store.unsettled(this.sql, userId);
      if (rows.length === 0 || !conversationId) return;
      await settleWith(this.env, userId, conversationId, rows);
      this.ctx.storage.transactionSync(() =>
        store.settled(
          this.sql,
          rows.map((r) => r.key),
        ),
      );
    });
    const tail = run.catch(() => undefined);
    this.settling.set(userId, tail);
    void tail.then(() => this.settling.get(userId) === tail && this.settling.delete(userId));
    return run;
  }

  /** Everything this room holds of `userId`'s credits goes back to their wallet (keyed: once). */
  private async giveBackAll(conversationId: string, userId: string) {
    const a = store.allowance(this.sql, userId);
    // A grant whose answer was lost (none a send waits for now): resolved first, so it comes back too.
    if (a.pending && !this.reserving.has(userId)) {
      const r = await reserve(this.env, userId, conversationId, a.pending, 0, 0);
      this.ctx.storage.transactionSync(() => store.granted(this.sql, userId, a.pending!, r.ok ? r.amount : 0));
    }
    this.ctx.storage.transactionSync(() => store.giveBack(this.sql, conversationId, userId, nowS()));
    await this.settle(userId);
  }

  /**
   * The alarm: charges go to the wallets, allowances unspent for ALLOWANCE_IDLE_S go back; the alarm
   * comes again while any is held (or a wallet could not be reached).
   */
  private async allowancesDue() {
    const conversationId = store.getMeta<string>(this.sql, "conversation_id");
    if (!conversationId) return;
    const now = nowS();
    let next: number | null = null;
    const retry = (at: number) => (next = next === null ? at : Math.min(next, at));
    for (const a of store.allowances(this.sql)) {
      const due = (a.last_spend_at ?? 0) + ALLOWANCE_IDLE_S;
      if (due > now) {
        retry(due);
        continue;
      }
      await this.giveBackAll(conversationId, a.user_id).catch((e) => {
        logError("chat.allowance_return_failed", e, { conversationId, memberId: a.user_id });
        retry(now + ALLOWANCE_IDLE_S);
      });
    }
    for (const userId of store.unsettledMembers(this.sql))
      await this.settle(userId).catch((e) => {
        logError("chat.charges_settle_failed", e, { conversationId, memberId: userId });
        retry(now + OVERVIEW_DELAY_MS / 1000);
      });
    if (next === null) return;
    const at = next * 1000;
    const existing = await this.ctx.storage.getAlarm();
    if (existing === null || existing > at) await this.ctx.storage.setAlarm(at);
  }

  /** RPC (the wallet): give back what you hold of `userId`'s credits. `gone`: this conversation was wiped. */
  async returnAllowance(conversationId: string, userId: string): Promise<{ gone: boolean }> {
    const known = store.getMeta<string>(this.sql, "conversation_id");
    if (known === undefined) return { gone: true };
    if (known === conversationId) await this.giveBackAll(conversationId, userId);
    return { gone: false };
  }

  /** RPC (the wallet, before it answers a read): the member's charges and returns it has not confirmed. */
  async pendingCharges(conversationId: string, userId: string): Promise<RoomCharge[]> {
    if (store.getMeta<string>(this.sql, "conversation_id") !== conversationId) return [];
    return store.unsettled(this.sql, userId).map(toRoomCharge);
  }

  /**
   * RPC (the hourly cron, decision 201): the member's paid messages to this team-run profile that
   * have waited longer than the brand's window (`hours`) without a reply get their credits back, once
   * each (the wallet's key names the message), with a line in the conversation. Answers the credits
   * given back now (0: nothing was due).
   */
  async returnUnanswered(
    conversationId: string,
    hours: number,
    now = nowS(),
  ): Promise<{ credits: number; messages: number }> {
    return this.serial(async () => {
      const none = { credits: 0, messages: 0 };
      const c = await this.open(conversationId);
      const profileId = store.getMeta<string>(this.sql, "team_profile");
      if (!c || !profileId || !this.isMember(c, profileId)) return none;
      const memberId = this.otherOf(c, profileId);
      const done = Number(store.getMeta(this.sql, "team_returned_seq") ?? Number.MIN_SAFE_INTEGER);
      const due = store.unansweredPaid(this.sql, profileId, memberId, done, now - hours * 3600);
      if (due.length === 0) return none;
      // The charges reach the wallet first, so its ledger shows each charge before its return.
      await this.settle(memberId);
      let credits = 0;
      for (const m of due) {
        await applyCredits(this.env, memberId, {
          key: `noreply:${c.id}:${m.seq}`,
          delta: m.credits_charged,
          reason: "noreply",
          refId: `message:${c.id}:${m.seq}`,
          at: now,
        });
        credits += m.credits_charged;
      }
      const last = due[due.length - 1]!.seq;
      const seq = (this.seqNext ??= store.nextSeq(this.sql));
      const row: store.StoredMessage = {
        seq,
        sender_id: "",
        client_id: `noreply-${last}`,
        kind: "notice",
        body: `${credits}|${hours}`,
        gift_id: null,
        credits_charged: 0,
        held: 0,
        created_at: now,
      };
      this.ctx.storage.transactionSync(() => {
        store.insertNew(this.sql, row);
        store.setMeta(this.sql, "team_returned_seq", last);
        store.bump(this.sql, "team_returned", credits);
        store.bump(this.sql, "team_v", 1);
      });
      this.seqNext = seq + 1;
      this.broadcast({ type: "message", message: store.toWire(row) }, () => true);
      await this.flush();
      return { credits, messages: due.length };
    });
  }

  /** RPC: the team-run profile types (its team member writes in the console's reply box; decision 210). */
  async teamTyping(conversationId: string, typing: boolean): Promise<boolean> {
    const c = await this.serial(() => this.open(conversationId));
    const profileId = store.getMeta<string>(this.sql, "team_profile");
    if (!c || !profileId || !this.isMember(c, profileId)) return false;
    this.broadcast({ type: "typing", memberId: profileId, typing }, (m) => m !== profileId);
    return true;
  }

  /** RPC: what a team reply now would answer (the dashboard's reply times and answered-in-time share). */
  async teamWaiting(conversationId: string): Promise<TeamWaiting | null> {
    return this.serial(async () => {
      const c = await this.open(conversationId);
      const profileId = store.getMeta<string>(this.sql, "team_profile");
      if (!c || !profileId || !this.isMember(c, profileId)) return null;
      const memberId = this.otherOf(c, profileId);
      const returned = Number(store.getMeta(this.sql, "team_returned_seq") ?? Number.MIN_SAFE_INTEGER);
      return store.teamWaitingMessages(this.sql, profileId, memberId).map((m) => ({
        createdAt: m.created_at,
        paid: m.credits_charged > 0,
        returned: m.credits_charged > 0 && m.seq <= returned,
      }));
    });
  }

  /** RPC (tests, bench): writes the overview now. */
  async flushOverview(): Promise<void> {
    await this.flush();
  }

  // -------------------------------------------------------------------------------------------
  // Reading, hiding, the history

  /** RPC: opening the chat sets the member's unread count to 0 (in D1 at once); the other side sees the receipt. */
  async read(conversationId: string, memberId: string): Promise<void> {
    const changed = await this.serial(async () => {
      const c = await this.open(conversationId);
      return c && this.isMember(c, memberId) ? this.markRead(memberId) : null;
    });
    if (changed === null) return;
    await this.afterRead(memberId, changed);
  }

  /** Inside serial(): the member's unread count to 0; true when it was not 0 already. */
  private markRead(memberId: string): boolean {
    const m = store.member(this.sql, memberId);
    if (!m) return false;
    if (m.unread > 0) this.putMember({ ...m, unread: 0 });
    return m.unread > 0;
  }

  /** The other side's receipt, and the overview written when the count changed. */
  private async afterRead(memberId: string, changed: boolean) {
    this.broadcast({ type: "read", memberId }, (m) => m !== memberId);
    if (changed) await this.flush();
  }

  /** RPC: hides (or shows again) the chat in this member's list; false when not a member. */
  async hide(conversationId: string, memberId: string, hidden: boolean): Promise<boolean> {
    const ok = await this.serial(async () => {
      const c = await this.open(conversationId);
      const m = c && this.isMember(c, memberId) ? store.member(this.sql, memberId) : null;
      if (!m) return false;
      this.putMember(hidden ? { ...m, unread: 0, hidden_at: nowS() } : { ...m, hidden_at: null });
      return true;
    });
    if (ok) await this.flush();
    return ok;
  }

  /** RPC: the conversation page's messages for `viewerId` (null: not a member). */
  async history(
    conversationId: string,
    viewerId: string,
    chatHistoryDays: number,
    opened = false,
  ): Promise<RoomHistory | null> {
    const c = await this.serial(async () => {
      const c = await this.open(conversationId);
      if (!c || !this.isMember(c, viewerId)) return null;
      return { changed: opened && this.markRead(viewerId) };
    });
    if (!c) return null;
    // The page that opens the chat reads it in the same call (one object call for the page, not two).
    if (c.changed) await this.afterRead(viewerId, true);
    const cutoff = historyCutoff(chatHistoryDays);
    return {
      messages: store.lastVisible(this.sql, viewerId, cutoff, PAGE_MESSAGES),
      olderHidden: store.olderExists(this.sql, cutoff),
    };
  }

  /**
   * RPC: held messages released after their sender confirmed the e-mail address: visible, counted
   * as unread, the overview written at once, open chats receive them live.
   */
  async release(conversationId: string, senderId: string): Promise<{ count: number; receiverId: string | null }> {
    this.rules.clear();
    const released = await this.serial(async () => {
      const c = await this.open(conversationId);
      return c && this.isMember(c, senderId) ? this.unholdAll(c, senderId) : null;
    });
    if (!released) return { count: 0, receiverId: null };
    await this.flush();
    return { count: released.length, receiverId: this.otherOf(this.conversation!, senderId) };
  }

  /**
   * Inside the queue: the sender's held messages become visible (counted unread, the overview moved,
   * marked for the write), and open chats receive them. Null when none were held.
   */
  private unholdAll(c: Conversation, senderId: string): WireMessage[] | null {
    if (this.noneHeld.has(senderId)) return null;
    const held = store.heldOf(this.sql, senderId);
    if (held.length === 0) {
      this.noneHeld.add(senderId);
      return null;
    }
    const last = held[held.length - 1]!;
    const receiverId = this.otherOf(c, senderId);
    this.ctx.storage.transactionSync(() => {
      store.unhold(this.sql, senderId, last.seq);
      const r = store.member(this.sql, receiverId);
      this.putMember({
        user_id: receiverId,
        unread: (r?.unread ?? 0) + held.length,
        hidden_at: null,
        last_activity_at: nowS(),
      });
      // The overview shows the newest shown message (a later one of the other member stays).
      const shown = store.lastShown(this.sql)!;
      store.setMeta(this.sql, "last_message_at", shown.created_at);
      store.setMeta(this.sql, "last_message_preview", previewOf(shown.kind, shown.body, shown.gift_id));
      store.setMeta(this.sql, "conversation_dirty", 1);
      // Shown now: a team-run profile's conversation waits for the team from here.
      const teamProfile = store.getMeta<string>(this.sql, "team_profile");
      if (teamProfile && teamProfile !== senderId) this.teamChanged(teamProfile, true);
    });
    const messages = held.map((m) => ({ ...store.toWire(m), held: false }));
    for (const message of messages) this.broadcast({ type: "message", message }, () => true);
    return messages;
  }

  /** RPC: a member's own messages here (the GDPR export). */
  async sentBy(conversationId: string, userId: string): Promise<SentByRow[]> {
    const c = await this.serial(() => this.open(conversationId));
    if (!c || !this.isMember(c, userId)) return [];
    return store.bySender(this.sql, userId).map((m) => ({
      conversationId,
      seq: m.seq,
      kind: m.kind,
      body: m.body,
      giftId: m.gift_id,
      creditsCharged: m.credits_charged,
      createdAt: m.created_at,
    }));
  }

  /** RPC: message `seq` with up to `n` before and after it (the moderation view of a report). */
  async excerpt(conversationId: string, seq: number, n: number): Promise<WireMessage[]> {
    const c = await this.serial(() => this.open(conversationId));
    if (!c) return [];
    return store.around(this.sql, seq, n).map(store.toWire);
  }

  /**
   * RPC (a moderation decision, decision 205): message `seq` of `senderId` leaves both members' views:
   * deleted here, the open chats told, the conversation list's last message moved back if it was this
   * one. Answers the removed message (the decision keeps it for an appeal), null when there is none.
   */
  async removeMessage(conversationId: string, seq: number, senderId: string): Promise<store.StoredMessage | null> {
    const removed = await this.serial(async () => {
      const c = await this.open(conversationId);
      const m = c ? store.bySeq(this.sql, seq) : null;
      if (!m || m.sender_id !== senderId) return null;
      this.ctx.storage.transactionSync(() => {
        store.deleteMessage(this.sql, seq);
        this.overviewFromLastShown();
      });
      return m;
    });
    if (!removed) return null;
    this.broadcast({ type: "removed", id: seq }, () => true);
    await this.flush();
    return removed;
  }

  /** RPC (an appeal reversed the removal): the message back where it was; open chats see it on reload. */
  async restoreMessage(conversationId: string, m: store.StoredMessage): Promise<boolean> {
    const back = await this.serial(async () => {
      const c = await this.open(conversationId);
      if (!c || !this.isMember(c, m.sender_id)) return false;
      let ok = false;
      this.ctx.storage.transactionSync(() => {
        ok = store.importMessage(this.sql, m);
        if (ok) this.overviewFromLastShown();
      });
      return ok;
    });
    if (back) await this.flush();
    return back;
  }

  /** The overview shows the newest shown message (after a removal or a restore). */
  private overviewFromLastShown() {
    const shown = store.lastShown(this.sql);
    store.setMeta(this.sql, "last_message_at", shown?.created_at ?? null);
    store.setMeta(this.sql, "last_message_preview", shown ? previewOf(shown.kind, shown.body, shown.gift_id) : null);
    store.setMeta(this.sql, "conversation_dirty", 1);
  }

  /** RPC: the sender's messages among the conversation's first `upTo` (the signals' openers). */
  async openers(
    conversationId: string,
    senderId: string,
    upTo: number,
  ): Promise<{ body: string; createdAt: number }[]> {
    const c = await this.serial(() => this.open(conversationId));
    if (!c) return [];
    return store
      .bySender(this.sql, senderId)
      .filter((m) => m.seq <= upTo)
      .map((m) => ({ body: m.body, createdAt: m.created_at }));
  }

  /**
   * RPC (the migration, app/models/chat.server.ts migrateMessagesPage): moves in what D1 still holds
   * of this conversation, then deletes those D1 rows. Idempotent; answers how many rows it moved.
   */
  async migrate(conversationId: string): Promise<number> {
    return this.serial(async () => {
      const c = await this.open(conversationId);
      if (!c) return 0;
      const { maxId, rows } = await this.importFromD1(conversationId);
      if (rows > 0) await deleteD1Messages(this.env.DB, conversationId, maxId);
      return rows;
    });
  }

  /** RPC: the accounts of this conversation are purged: everything here goes (D1 cascades the rest). */
  async wipe(conversationId: string): Promise<void> {
    await this.serial(async () => {
      const known = store.getMeta<string>(this.sql, "conversation_id");
      if (known !== undefined && known !== conversationId) return;
      for (const ws of this.ctx.getWebSockets()) closeRevoked(ws);
      // What the members' wallets granted here goes back first (the other member keeps their credits).
      if (known !== undefined)
        for (const a of [
          ...store.allowances(this.sql),
          ...store.unsettledMembers(this.sql).map((user_id) => ({ user_id })),
        ])
          await this.giveBackAll(conversationId, a.user_id).catch((e) =>
            logError("chat.allowance_return_failed", e, { conversationId, memberId: a.user_id }),
          );
      store.wipe(this.sql);
      this.dropCaches();
      await this.ctx.storage.deleteAlarm();
    });
  }

  /** RPC (tests, bench): messages stored here, and the D1 writes of the overview (writes, rows D1 reported). */
  async stats(): Promise<RoomStats> {
    this.noteMessages();
    const n = (k: string) => Number(store.getMeta(this.sql, k) ?? 0);
    return {
      messages: n("stat_messages"),
      overviewWrites: n("stat_overview_writes"),
      d1RowsWritten: n("stat_d1_rows_written"),
    };
  }

  /** RPC: a rule a send checks changed (block, restriction, suspension, confirmation): re-read it. */
  async forget(): Promise<void> {
    this.rules.clear();
  }

  /** RPC: some sessions of this member were revoked; their sockets here close now, and the rules are re-read. */
  async closeRevoked(memberId: string): Promise<number> {
    this.rules.clear();
    return closeSocketsOfRevokedSessions(this.env.DB, this.ctx.getWebSockets(memberId));
  }

  /** Point-in-time recovery of this object's storage (app/chat/restore.ts). */
  async restoreStorage(to: RestoreTarget): Promise<RestoreAnswer> {
    return scheduleRestore(this.ctx.storage, to);
  }

  async restart(): Promise<void> {
    this.ctx.abort("restart");
  }

  private isOnline(memberId: string, except?: WebSocket): boolean {
    return this.ctx.getWebSockets(memberId).some((ws) => ws !== except && ws.readyState === WebSocket.OPEN);
  }

  private broadcast(frame: ServerFrame, to: (memberId: string) => boolean) {
    const text = JSON.stringify(frame);
    for (const ws of this.ctx.getWebSockets()) {
      const who = ws.deserializeAttachment() as Attachment | null;
      if (who && to(who.memberId)) safeSend(ws, text);
    }
  }
}

/** The prices the Worker attached (whole credits, never negative); null if missing or malformed. */
function parsePrices(header: string | null): ChatPrices | null {
  try {
    const p = JSON.parse(header ?? "") as ChatPrices;
    return [p.message, p.gift].every((n) => Number.isInteger(n) && n >= 0)
      ? { message: p.message, gift: p.gift }
      : null;
  } catch {
    return null;
  }
}

function safeSend(ws: WebSocket, frame: ServerFrame | string) {
  try {
    ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  } catch {
    // The socket closed meanwhile; the client resumes from its last message id.
  }
}
