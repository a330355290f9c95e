/** Which item of the member navigation a page belongs to (highlighted with aria-current). */
export type NavSection = "search" | "messages" | "likes" | "credits";

const under = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);

export function navSection(pathname: string): NavSection | null {
  // A chat opened from a profile (/members/{id}/chat) is Messages, not Search.
  if (under(pathname, "/chats") || /^\/members\/[^/]+\/chat\/?$/.test(pathname)) return "messages";
  if (under(pathname, "/members")) return "search";
  if (under(pathname, "/likes")) return "likes";
  if (under(pathname, "/credits")) return "credits";
  return null;
}
