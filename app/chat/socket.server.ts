import type { Env } from "../lib/env";
import { currentSessionHash, getMember } from "../models/session.server";
import { conversationAccess } from "../models/chat.server";
import { hubStub, roomStub } from "./stubs";
import { getBrandByHost } from "../models/brand.server";
import { pricesFor } from "../models/credits.server";
import { CONVERSATION_HEADER, MEMBER_HEADER, PRICES_HEADER, SESSION_HEADER, type ChatPrices } from "./protocol";

/**
 * The checks every WebSocket upgrade passes before the Worker forwards it to a Durable Object:
 * a WebSocket handshake, from this origin, by a member signed in with the session cookie.
 * Answers the member's id, or the refusal to send back.
 */
async function authenticateUpgrade(
  request: Request,
  env: Env,
): Promise<{ memberId: string; country: string; sessionHash: string } | Response> {
  if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket")
    return new Response("Expected a WebSocket", { status: 426 });
  // Cross-site WebSocket hijacking: browsers always send Origin on a WebSocket handshake.
  const origin = request.headers.get("Origin");
  if (origin && origin !== new URL(request.url).origin) return new Response("Forbidden", { status: 403 });
  const context = { env, cf: request.cf as { country?: string } | undefined };
  // The age gate's refusal (decision 197) is thrown by getMember: answered as it is (403).
  const member = await getMember(request, context).catch((e: unknown) => {
    if (e instanceof Response) return e;
    throw e;
  });
  if (member instanceof Response) return member;
  const sessionHash = await currentSessionHash(request, context);
  if (!member || !sessionHash) return new Response("authentication_required", { status: 403 });
  return { memberId: member.id, country: member.country, sessionHash };
}

/**
 * GET /ws/chat/{conversationId}[?after=<last seen message id>]: authenticates the member from the
 * session cookie, checks they belong to the conversation, and forwards the upgrade to its object
 * with the member id attached. The object trusts only these headers, and only the Worker can
 * reach it, so a browser cannot pose as another member.
 */
export async function handleChatSocket(request: Request, env: Env): Promise<Response> {
  const auth = await authenticateUpgrade(request, env);
  if (auth instanceof Response) return auth;
  const url = new URL(request.url);
  const conversationId = decodeURIComponent(url.pathname.slice("/ws/chat/".length));
  const access = await conversationAccess(env.DB, conversationId, auth.memberId);
  if (!access) return new Response("Not found", { status: 404 });
  // What this member's messages cost, fixed for the connection (a reconnect picks up a change).
  const { message, gift } = pricesFor(await getBrandByHost(env, request.headers.get("Host")), auth.country);
  const headers = new Headers({
    Upgrade: "websocket",
    [MEMBER_HEADER]: auth.memberId,
    [CONVERSATION_HEADER]: conversationId,
    [SESSION_HEADER]: auth.sessionHash,
    [PRICES_HEADER]: JSON.stringify({ message, gift } satisfies ChatPrices),
  });
  const after = url.searchParams.get("after");
  const target = `https://chat-room/${encodeURIComponent(conversationId)}${after ? `?after=${encodeURIComponent(after)}` : ""}`;
  return roomStub(env, conversationId).fetch(new Request(target, { headers }));
}

/** GET /ws/member: the signed-in member's own notification channel (app/chat/hub.ts), same checks. */
export async function handleMemberSocket(request: Request, env: Env): Promise<Response> {
  const auth = await authenticateUpgrade(request, env);
  if (auth instanceof Response) return auth;
  const headers = new Headers({
    Upgrade: "websocket",
    [MEMBER_HEADER]: auth.memberId,
    [SESSION_HEADER]: auth.sessionHash,
  });
  return hubStub(env, auth.memberId).fetch(new Request("https://member-hub/", { headers }));
}
