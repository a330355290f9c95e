import { readCookie } from "./cookies.server";
import { CHAT_RETURN_COOKIE, CHAT_RETURN_MAX_AGE_S, decodeChatReturn, encodeChatReturn } from "./chat-return";

/** Set-Cookie for the chat to return to after buying credits, and its draft (decision 179). */
export function chatReturnCookie(path: string, draft: string): string {
  return `${CHAT_RETURN_COOKIE}=${encodeChatReturn(path, draft)}; Path=/; Max-Age=${CHAT_RETURN_MAX_AGE_S}; SameSite=Lax; Secure; HttpOnly`;
}

export const clearChatReturnCookie = `${CHAT_RETURN_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax; Secure; HttpOnly`;

export function readChatReturn(request: Request) {
  return decodeChatReturn(readCookie(request, CHAT_RETURN_COOKIE));
}
