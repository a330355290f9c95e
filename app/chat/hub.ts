/**
 * MemberHub: one Durable Object per member (idFromName(userId)), the member's notification channel.
 * Every open tab of the member holds one socket here (GET /ws/member); whatever changes the member's
 * counts (a message, a like) calls notify(), and each tab re-fetches its counts at once. The object
 * stores nothing: sockets use the Hibernation API, so it sleeps between events.
 */
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../lib/env";
import type { MemberHubApi } from "./rpc";
import { MEMBER_HEADER, PING, PONG, SESSION_HEADER, type HubEvent } from "./protocol";
import { closeSocketsOfRevokedSessions, type SocketSession } from "./revoked";

export class MemberHub extends DurableObject<Env> implements MemberHubApi {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
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
}
