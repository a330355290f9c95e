import type { AppLoadContext } from "@remix-run/cloudflare";
import type { Env } from "../lib/env";
import { getMember } from "../models/session.server";
import { conversationAccess, roomStub } from "../models/chat.server";
import { CONVERSATION_HEADER, MEMBER_HEADER } from "./protocol";

/**
 * GET /ws/chat/{conversationId}[?after=<last seen message id>]: authenticates the member from the
 * session cookie, checks they belong to the conversation, and forwards the upgrade to its object
 * with the member id attached. The object trusts only these headers, and only the Worker can
 * reach it, so a browser cannot pose as another member.
 */
export async function handleChatSocket(request: Request, env: Env): Promise<Response> {
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("Expected a WebSocket", { status: 426 });
  const url = new URL(request.url);
  // Cross-site WebSocket hijacking: browsers always send Origin on a WebSocket handshake.
  const origin = request.headers.get("Origin");
  if (origin && origin !== url.origin) return new Response("Forbidden", { status: 403 });
  const conversationId = decodeURIComponent(url.pathname.slice("/ws/chat/".length));
  // getMember only reads env from the load context.
  const member = await getMember(request, { env } as AppLoadContext);
  if (!member) return new Response("authentication_required", { status: 403 });
  const access = await conversationAccess(env.DB, conversationId, member.id);
  if (!access) return new Response("Not found", { status: 404 });
  const headers = new Headers({ Upgrade: "websocket", [MEMBER_HEADER]: member.id, [CONVERSATION_HEADER]: conversationId });
  const after = url.searchParams.get("after");
  const target = `https://chat-room/${encodeURIComponent(conversationId)}${after ? `?after=${encodeURIComponent(after)}` : ""}`;
  return roomStub(env, conversationId).fetch(new Request(target, { headers }));
}
