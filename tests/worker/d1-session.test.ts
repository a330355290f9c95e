/**
 * Decision 222: every request reads D1 through a session. A member's response carries the session's
 * bookmark (the `d1b` cookie) and their next page starts from it, so a replica answers only once it holds
 * what they wrote; a visitor's page starts anywhere; posts and the console start at the primary. Locally
 * the one database answers real bookmarks, so what is checked here is the chain that makes a replica
 * safe: the bookmark after a write is at least the write's, and the next page, anchored on it, shows it.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { BOOKMARK_COOKIE, sessionAnchor } from "../../app/lib/d1-session.server";
import { createMember, get, post, seedBrands, sessionCookie } from "./fixtures";

const bookmarkOf = (res: Response) => {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${BOOKMARK_COOKIE}=`));
  return set ? set.slice(BOOKMARK_COOKIE.length + 1).split(";")[0]! : null;
};

describe("D1 sessions (read replicas)", () => {
  beforeAll(seedBrands);

  it("a member's like is on their next page, read from a session anchored on the like's bookmark", async () => {
    const me = await createMember({ gender: "male", country: "NL" });
    const her = await createMember({ gender: "female", country: "NL", name: "Replica Rosa" });
    const cookie = await sessionCookie(me.id);
    // The database's newest bookmark before the like: the like's must come after it.
    const before = env.DB.withSession("first-primary");
    await before.prepare("SELECT 1").first();
    const beforeMark = before.getBookmark()!;

    const liked = await post(`/members/${her.id}`, { intent: "like" }, { cookie });
    expect(liked.status).toBeLessThan(400);
    const mark = bookmarkOf(liked);
    expect(mark, "the response to a write carries the session's bookmark").toBeTruthy();
    expect(mark! > beforeMark, "the bookmark is at or after the write").toBe(true);
    expect(liked.headers.getSetCookie().find((c) => c.startsWith(`${BOOKMARK_COOKIE}=`))).toMatch(
      /HttpOnly; Secure; SameSite=Lax/,
    );

    const sent = await get("/likes/sent", { cookie: `${cookie}; ${BOOKMARK_COOKIE}=${mark}` });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain("Replica Rosa");
  });

  it("where each request starts", () => {
    const req = (path: string, init: RequestInit & { cookie?: string } = {}) =>
      new Request(`https://amora.example${path}`, {
        ...init,
        headers: init.cookie ? { Cookie: init.cookie } : {},
      });
    expect(sessionAnchor(req("/"))).toBe("first-unconstrained");
    expect(sessionAnchor(req("/members", { cookie: "sid=x" }))).toBe("first-unconstrained");
    const mark = "0000002a-00000004-00005036-6a0fbc3d58e0b8f6b0e1d1b6f1f0c9a2";
    expect(sessionAnchor(req("/members", { cookie: `sid=x; d1b=${mark}` }))).toBe(mark);
    // A visitor's bookmark cookie means nothing: their pages show nothing they wrote.
    expect(sessionAnchor(req("/", { cookie: `d1b=${mark}` }))).toBe("first-unconstrained");
    // Forms, webhooks and the console read what is current.
    expect(sessionAnchor(req("/login", { method: "POST" }))).toBe("first-primary");
    expect(sessionAnchor(req("/admin/reports", { cookie: `op_sid=x; d1b=${mark}` }))).toBe("first-primary");
    expect(sessionAnchor(req("/api/admin/restore"))).toBe("first-primary");
  });

  it("a forged or malformed bookmark is ignored, not passed to D1", async () => {
    const me = await createMember({ gender: "male", country: "NL" });
    const cookie = await sessionCookie(me.id);
    for (const junk of ["'; DROP TABLE users", "x".repeat(5000), "zzzz-zzzz", "%00"]) {
      const res = await get("/members", { cookie: `${cookie}; ${BOOKMARK_COOKIE}=${encodeURIComponent(junk)}` });
      expect(res.status, junk.slice(0, 20)).toBe(200);
    }
  });

  it("a visitor gets no bookmark cookie", async () => {
    const res = await get("/");
    expect(res.status).toBe(200);
    expect(bookmarkOf(res)).toBeNull();
  });
});
