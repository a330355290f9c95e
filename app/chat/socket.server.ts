import type { Env } from "../lib/env";

/** Authenticates a chat WebSocket upgrade and forwards it to the conversation's object. */
export async function handleChatSocket(_request: Request, _env: Env): Promise<Response> {
  return new Response("Not found", { status: 404 });
}
