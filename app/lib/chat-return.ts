/**
 * Buying credits from a chat (decision 179): the checkout remembers which chat to return to
 * and the text the member had typed, so neither is lost, with or without JavaScript. The return path
 * is the member's input: only a chat path of this site passes (never another host, never "//x").
 */
export const CHAT_RETURN_COOKIE = "chat_return";
export const CHAT_RETURN_MAX_AGE_S = 3600;
// Browsers keep about 4 KB per cookie; the draft is cut to fit, the path never.
const MAX_ENCODED = 3800;

const CHAT_PATH = /^\/(?:chats\/[A-Za-z0-9_-]{1,64}|members\/[A-Za-z0-9_-]{1,64}\/chat)$/;

/** The path when it is one of this site's chat pages, else null. */
export function safeChatReturnPath(value: unknown): string | null {
  return typeof value === "string" && CHAT_PATH.test(value) ? value : null;
}

export type ChatReturn = { path: string; draft: string };

/** The cookie value for a return path and draft (the draft shortened until the value fits a cookie). */
export function encodeChatReturn(path: string, draft: string): string {
  let d = draft;
  for (;;) {
    const value = encodeURIComponent(JSON.stringify([path, d]));
    if (value.length <= MAX_ENCODED || d.length === 0) return value;
    d = Array.from(d)
      .slice(0, Math.floor(Array.from(d).length * 0.8))
      .join("");
  }
}

/** The decoded cookie (already percent-decoded by readCookie); null when malformed or the path is not a chat. */
export function decodeChatReturn(value: string | null): ChatReturn | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[1] !== "string") return null;
    const path = safeChatReturnPath(parsed[0]);
    return path ? { path, draft: parsed[1] } : null;
  } catch {
    return null;
  }
}
