import { DurableObject } from "cloudflare:workers";
import type { Env } from "../lib/env";

/**
 * A trivial Durable Object for the chat benchmark's baseline: relays every frame to the other
 * sockets (Hibernation API, no D1). Routed at /ws/echo/{name} outside production only.
 */
export class EchoRoom extends DurableObject<Env> {
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket")
      return new Response("Expected a WebSocket", { status: 426 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server);
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    for (const other of this.ctx.getWebSockets()) if (other !== ws) other.send(message);
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string) {
    ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
  }
}
