/**
 * ChatRoom: one Durable Object per conversation (idFromName(conversationId)). Every send of the
 * conversation passes through here, live (WebSocket) or not (RPC from a form action), one at a time,
 * so both members see one order and a retried client id is handled once. Sockets use the
 * Hibernation API: the object keeps nothing in memory that it cannot lose, so it can sleep between
 * messages; who a socket belongs to travels in its serialized attachment.
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../lib/env";
import type { ChatRoomApi } from "./rpc";
import {
  CONVERSATION_HEADER,
  MEMBER_HEADER,
  PING,
  PONG,
  PRICES_HEADER,
  SESSION_HEADER,
  parseClientFrame,
  type ChatPrices,
  type SendInput,
  type SendResult,
  type ServerFrame,
  type WireMessage,
} from "./protocol";
import { closeRevoked, closeSocketsOfRevokedSessions, type SocketSession } from "./revoked";
import { markRead, messagesAfter, sendMessage, conversationAccess } from "../models/chat.server";
import { notifyMember } from "../models/hub.server";
import { countEvent } from "../lib/metrics.server";
import { enqueue } from "../models/notify-queue";
import { checkMessage } from "../models/signals.server";
import { logError } from "../lib/log.server";

type Attachment = SocketSession & { memberId: string; conversationId: string; prices: ChatPrices };

export class ChatRoom extends DurableObject<Env> implements ChatRoomApi {
  /** Serializes sends and connects: D1 awaits would otherwise let requests interleave. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
  }

  /** Work that runs after the answer (notifications, mail); `settled()` lets tests wait on it. */
  private background = new Set<Promise<unknown>>();

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
      const [messages, access] = await Promise.all([
        messagesAfter(this.env.DB, conversationId, memberId, after),
        conversationAccess(this.env.DB, conversationId, memberId),
      ]);
      this.ctx.acceptWebSocket(server, [memberId]);
      server.serializeAttachment({ memberId, conversationId, sessionHash, prices } satisfies Attachment);
      return { type: "backlog", messages, otherUnread: access?.otherUnread ?? 0 } satisfies ServerFrame;
    });
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
        // The send is guarded on the socket's session still being live (one batch, no extra round trip).
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
        const result = await this.send(input);
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

  /** RPC: sends a message (form posts call this; the WebSocket path too), then broadcasts it. */
  async send(input: SendInput): Promise<SendResult> {
    return this.serial(async () => {
      const result = await sendMessage(this.env.DB, input);
      if (!result.ok || result.duplicate) return result;
      countEvent(this.env, "message");
      const { message } = result;
      // A held message is only shown to its sender until their address is confirmed.
      this.broadcast({ type: "message", message }, (m) => !message.held || m === input.senderId);
      // The receiver's badges on whatever page they are (after the answer: the sender does not wait).
      if (!message.held)
        this.later(
          notifyMember(this.env, result.receiverId, {
            kind: "message",
            conversationId: input.conversationId,
            senderId: input.senderId,
          }),
        );
      // Mail and push (app/models/notify.server.ts) for a receiver not in this conversation, once per unread burst.
      if (!message.held && result.firstUnread && !this.isOnline(result.receiverId)) {
        this.later(
          enqueue(this.env, {
            kind: "message",
            conversationId: input.conversationId,
            senderId: input.senderId,
            receiverId: result.receiverId,
            messageId: message.id,
          }),
        );
      }
      // Scam and spam signals (decision 176): after the answer; they may open a case, never restrict.
      this.later(
        checkMessage(this.env.DB, {
          ...message,
          seq: message.id,
          senderId: input.senderId,
          conversationId: input.conversationId,
        }).catch((e) => logError("signals.check_failed", e, { conversationId: input.conversationId })),
      );
      return result;
    });
  }

  /** RPC: opening the chat sets the member's unread count to 0; the other side sees the receipt. */
  async read(conversationId: string, memberId: string): Promise<void> {
    await markRead(this.env.DB, conversationId, memberId);
    this.broadcast({ type: "read", memberId }, (m) => m !== memberId);
  }

  /** RPC: held messages released after their sender confirmed the e-mail address. */
  async deliver(messages: WireMessage[]): Promise<void> {
    for (const message of messages) this.broadcast({ type: "message", message }, () => true);
  }

  /** RPC (tests): resolves once the work started after earlier answers (notifications, mail) is done. */
  async settled(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled(this.background);
  }

  /** RPC: some sessions of this member were revoked; their sockets here close now. */
  async closeRevoked(memberId: string): Promise<number> {
    return closeSocketsOfRevokedSessions(this.env.DB, this.ctx.getWebSockets(memberId));
  }

  /** RPC (tests, bench): how many sockets are open, per member. */
  async sockets(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const ws of this.ctx.getWebSockets()) {
      const who = ws.deserializeAttachment() as Attachment | null;
      if (who) out[who.memberId] = (out[who.memberId] ?? 0) + 1;
    }
    return out;
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
