/** Which item of the member navigation a page belongs to (highlighted with aria-current). */
export type NavSection = "search" | "messages" | "likes" | "swipe" | "credits";

const under = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);

/**
 * The step of the sign-up steps a page shows (/complete-signup?step=, the first one by default), null
 * on any other page: the alert asking for what that step asks (a photo, the e-mail confirmation) is
 * not repeated above it.
 */
export function signupStepOf(pathname: string, search: string): string | null {
  return pathname === "/complete-signup" ? (new URLSearchParams(search).get("step") ?? "message") : null;
}

export function navSection(pathname: string): NavSection | null {
  // A chat opened from a profile (/members/{id}/chat) is Messages, not Search.
  if (under(pathname, "/chats") || /^\/members\/[^/]+\/chat\/?$/.test(pathname)) return "messages";
  if (under(pathname, "/members")) return "search";
  if (under(pathname, "/likes")) return "likes";
  if (under(pathname, "/swipe-game")) return "swipe";
  if (under(pathname, "/credits")) return "credits";
  return null;
}
