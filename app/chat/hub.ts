/**
 * MemberHub: one Durable Object per member (idFromName(userId)), the member's notification channel
 * and the home of their wallet.
 *
 * Channel: every open tab of the member holds one socket here (GET /ws/member); whatever changes the
 * member's counts (a message, a like) calls notify(), and each tab re-fetches its counts at once.
 * Sockets use the Hibernation API, so the object sleeps between events.
 *
 * Wallet: the member's balance and ledger live in this object's SQLite (decision 189), but every rule
 * of money is in app/wallet/ (decision 229): the RPCs below only hand each call to the Wallet, and the
 * object's alarm is the wallet's (the coalesced D1 copy of the balance).
 */
import { scheduleRestore, type RestoreAnswer, type RestoreTarget } from "./restore";
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../lib/env";
import { Wallet } from "../wallet/wallet";
import type { MemberHubApi } from "./rpc";
import { MEMBER_HEADER, PING, PONG, SESSION_HEADER, type HubEvent } from "./protocol";
import { closeSocketsOfRevokedSessions, type SocketSession } from "./revoked";

export class MemberHub extends DurableObject<Env> implements MemberHubApi {
  protected readonly wallet: Wallet;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
    this.wallet = this.walletOf(ctx, env);
  }

  /** The object's wallet; the worker tests' subclass holds one whose calls can be made to fail (decision 236). */
  protected walletOf(ctx: DurableObjectState, env: Env): Wallet {
    return new Wallet(ctx, env);
  }

  /** The WebSocket upgrade, forwarded by the Worker after it authenticated the member. */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket")
      return new Response("Expected a WebSocket", { status: 426 });
    const sessionHash = request.headers.get(SESSION_HEADER);
    if (!request.headers.get(MEMBER_HEADER) || !sessionHash) return new Response("Forbidden", { status: 403 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ sessionHash } satisfies SocketSession);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** The browser sends nothing but pings (answered by the runtime); anything else is ignored. */
  async webSocketMessage() {}

  async webSocketClose(ws: WebSocket, code: number, reason: string) {
    // 1005 (no status) and 1006 (abnormal) are reserved: they cannot be sent in a close frame.
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // Already closed.
    }
  }

  async webSocketError(ws: WebSocket) {
    try {
      ws.close(1011, "error");
    } catch {
      // Already closed.
    }
  }

  /** RPC: some of the member's sessions were revoked; their tabs' sockets close now. */
  async closeRevoked(): Promise<number> {
    return closeSocketsOfRevokedSessions(this.env.DB, this.ctx.getWebSockets());
  }

  /** RPC: something changed the member's counts; every open tab hears it. Answers how many tabs did. */
  async notify(event: HubEvent): Promise<number> {
    const text = JSON.stringify(event);
    let sent = 0;
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.send(text);
        sent += 1;
      } catch {
        // Closed meanwhile; the tab reconnects and re-fetches anyway.
      }
    }
    return sent;
  }

  /** Point-in-time recovery of this object's storage (app/chat/restore.ts): the wallet's too. */
  async restoreStorage(to: RestoreTarget): Promise<RestoreAnswer> {
    return scheduleRestore(this.ctx.storage, to);
  }

  async restart(): Promise<void> {
    this.ctx.abort("restart");
  }

  // -------------------------------------------------------------------------------------------
  // The wallet's RPCs (app/wallet/wallet.ts); `userId` is the object's own member, checked there.

  applyCredits(...a: Parameters<Wallet["apply"]>) {
    return this.wallet.apply(...a);
  }

  cancelCredits(...a: Parameters<Wallet["cancel"]>) {
    return this.wallet.cancel(...a);
  }

  walletBalance(...a: Parameters<Wallet["balance"]>) {
    return this.wallet.balance(...a);
  }

  walletOp(...a: Parameters<Wallet["op"]>) {
    return this.wallet.op(...a);
  }

  walletLedger(...a: Parameters<Wallet["ledger"]>) {
    return this.wallet.ledger(...a);
  }

  walletStatement(...a: Parameters<Wallet["statement"]>) {
    return this.wallet.statement(...a);
  }

  walletSummary(...a: Parameters<Wallet["summary"]>) {
    return this.wallet.summary(...a);
  }

  walletFlush(...a: Parameters<Wallet["flush"]>) {
    return this.wallet.flush(...a);
  }

  walletPurge(...a: Parameters<Wallet["purge"]>) {
    return this.wallet.purge(...a);
  }

  walletReserve(...a: Parameters<Wallet["reserve"]>) {
    return this.wallet.reserve(...a);
  }

  walletSettle(...a: Parameters<Wallet["settle"]>) {
    return this.wallet.settle(...a);
  }

  /** The only alarm of the object: the wallet's copy of the balance to D1. */
  async alarm(): Promise<void> {
    await this.wallet.alarm();
  }
}
