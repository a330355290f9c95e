import { DurableObject } from "cloudflare:workers";
import type { Env } from "../lib/env";

/**
 * A trivial Durable Object for the chat benchmark's baselines: relays every frame to the other
 * sockets (Hibernation API, no D1). Routed at /ws/echo/{name} outside production only. With
 * `?store=1` it first writes each frame as one row of its SQLite: the durable write alone (the
 * runtime holds the relayed frame until that write is confirmed), what any stored message costs.
 */
export class EchoRoom extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS frames (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  }

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket")
      return new Response("Expected a WebSocket", { status: 426 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    server.serializeAttachment({ store: new URL(request.url).searchParams.get("store") === "1" });
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    if ((ws.deserializeAttachment() as { store?: boolean } | null)?.store)
      this.ctx.storage.sql.exec("INSERT INTO frames (body) VALUES (?)", String(message));
    for (const other of this.ctx.getWebSockets()) if (other !== ws) other.send(message);
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string) {
    ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
  }
}
