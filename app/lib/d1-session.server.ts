/**
 * D1 read replicas through the Sessions API (decision 222, docs/architecture/budgets.md §6): each request reads
 * through one D1 session, anchored where that request may read from.
 *
 * - A visitor's page (GET, no member or operator cookie) starts anywhere ("first-unconstrained"): the
 *   nearest replica, which may trail the primary by a moment; nothing a visitor sees is their own write.
 * - A member's page starts from the bookmark their last response carried (the `d1b` cookie), so a replica
 *   answers only once it holds everything that member wrote: their own like, photo or settings are never
 *   missing. Without a bookmark yet (a new browser) it starts anywhere, as a visitor's.
 * - Every form post, API call and webhook (anything but GET/HEAD) and every console request starts at the
 *   primary ("first-primary"): a guard that decides on money, quotas or a moderation state reads what is
 *   current, and an operator acts on the newest state of a case.
 * Writes always go to the primary. Durable Objects, the queues and the cron use the binding itself.
 * Locally (wrangler, Miniflare, the tests) the same calls run against the one database, which answers
 * real bookmarks.
 */
import type { Env } from "./env";
import { isAdminPath } from "./admin-path";

/** The cookie that carries a member's last D1 bookmark between requests. */
export const BOOKMARK_COOKIE = "d1b";
/** A bookmark outlives its use quickly: after an hour every replica has long caught up. */
const BOOKMARK_MAX_AGE_S = 3600;
/** Bookmarks are hex fields joined by dashes (e.g. `0000002a-00000004-00005036-6a0f…`); nothing else is passed on. */
const BOOKMARK_RE = /^[0-9a-f]{1,64}(?:-[0-9a-f]{1,64}){1,7}$/i;

const SIGNED_IN_COOKIES = ["sid", "op_sid"];

function cookies(header: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0) out.set(part.slice(0, i).trim(), part.slice(i + 1).trim());
  }
  return out;
}

/** Where a request's session starts: a bookmark, or a constraint (see the module comment). */
export function sessionAnchor(request: Request): string {
  const url = new URL(request.url);
  const console = isAdminPath(url.pathname) || /^\/api\/admin(?:[/.]|$)/.test(url.pathname);
  if ((request.method !== "GET" && request.method !== "HEAD") || console) return "first-primary";
  const jar = cookies(request.headers.get("Cookie"));
  if (!SIGNED_IN_COOKIES.some((name) => jar.has(name))) return "first-unconstrained";
  const bookmark = jar.get(BOOKMARK_COOKIE);
  return bookmark && BOOKMARK_RE.test(bookmark) ? bookmark : "first-unconstrained";
}

/**
 * The request's env with DB as a D1 session anchored for it, and a function that, after the response is
 * made, gives the `Set-Cookie` to carry the session's bookmark on (null for a visitor, or when nothing
 * changed).
 */
export function withD1Session(
  env: Env,
  request: Request,
): { env: Env; bookmarkCookie: (response: Response) => string | null } {
  const anchor = sessionAnchor(request);
  const session = env.DB.withSession(anchor);
  return {
    // A session answers prepare and batch as the database does; exec and dump are not used per request.
    env: { ...env, DB: session as unknown as D1Database },
    bookmarkCookie(response) {
      const bookmark = session.getBookmark();
      if (!bookmark || bookmark === anchor || !BOOKMARK_RE.test(bookmark)) return null;
      const jar = cookies(request.headers.get("Cookie"));
      const signedIn =
        SIGNED_IN_COOKIES.some((name) => jar.has(name)) ||
        response.headers.getSetCookie().some((c) => SIGNED_IN_COOKIES.some((name) => c.startsWith(`${name}=`)));
      // Bookmarks sort from oldest to newest: only a newer one is worth a cookie.
      const carried = jar.get(BOOKMARK_COOKIE);
      if (!signedIn || (carried && BOOKMARK_RE.test(carried) && carried >= bookmark)) return null;
      return `${BOOKMARK_COOKIE}=${bookmark}; Path=/; Max-Age=${BOOKMARK_MAX_AGE_S}; HttpOnly; Secure; SameSite=Lax`;
    },
  };
}
