/**
 * docs/architecture/budgets.md §6: a member's or a visitor's page waits on at most two sequential D1 round trips
 * (each one crosses the distance to the primary). Counted by the Worker itself for one request
 * (X-Trace-Round-Trips, app/lib/trace.server.ts); parallel queries and a batch count once. Each page
 * is asked once before it is counted: the brand settings and the like are cached per instance
 * (docs/architecture/layout.md §3), and
 * a cold instance's first request reads them too.
 */
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { startConversation } from "../../app/models/chat.server";
import { SIMILAR_BELOW } from "../../app/models/search.server";
import { createMember, get, seedBrands, sessionCookie } from "./fixtures";

async function traced(path: string, cookie: string) {
  await (await get(path, { cookie, country: "NL" })).arrayBuffer();
  return get(path, { cookie, headers: { "X-Trace-Round-Trips": "1" }, country: "NL" });
}

/** D1 queries and their sequential depth, object calls and theirs, as the Worker counted them. */
function roundTrips(res: Response) {
  const timing = res.headers.get("Server-Timing") ?? "";
  const pair = (name: string) => {
    const m = new RegExp(`${name};desc="(\\d+)/(\\d+)"`).exec(timing);
    if (!m) throw new Error(`no ${name} count in Server-Timing: ${timing}`);
    return { count: Number(m[1]), depth: Number(m[2]) };
  };
  return { d1: pair("d1"), objects: pair("do") };
}

describe("round trips per page", () => {
  let cookie: string;
  let other: string;
  let conversation: string;
  beforeAll(async () => {
    await seedBrands();
    const me = await createMember({ paidUser: true, credits: 100, gender: "male", country: "NL" });
    const her = await createMember({ gender: "female", country: "NL" });
    // Enough matches that search shows no "similar members": that third query runs only when fewer
    // than SIMILAR_BELOW match (app/models/search.server.ts says why it is not batched).
    for (let i = 0; i < SIMILAR_BELOW; i++) await createMember({ gender: "female", country: "NL" });
    const started = await startConversation(env.DB, me.id, her.id);
    if (!started.ok) throw new Error(started.error);
    cookie = await sessionCookie(me.id);
    other = her.id;
    conversation = started.id;
  });

  it("a member's pages wait on at most two sequential D1 round trips and one object call each kind", async () => {
    const pages = [
      "/members",
      `/members/${other}`,
      "/likes",
      "/chats",
      `/chats/${conversation}`,
      "/credits",
      "/credits/p1/ideal",
      "/settings",
      "/profile",
      "/swipe-game",
      "/transactions",
    ];
    const over: string[] = [];
    for (const path of pages) {
      const res = await traced(path, cookie);
      await res.arrayBuffer();
      expect(res.status, path).toBe(200);
      const t = roundTrips(res);
      // The wallet's balance (MemberHub) on every page; the conversation also asks its room.
      const objects = path.startsWith("/chats/") ? 2 : 1;
      if (t.d1.depth > 2 || t.objects.depth > objects) over.push(`${path}: ${res.headers.get("Server-Timing")}`);
    }
    expect(over).toEqual([]);
  });

  it("a visitor's pages wait on at most two sequential D1 round trips and no object", async () => {
    for (const path of ["/", "/signup", "/login", "/landers/tinderswipe", `/members/${other}/landing`, "/pricing"]) {
      const res = await traced(path, "entry_ok=1");
      await res.arrayBuffer();
      expect(res.status, path).toBe(200);
      const t = roundTrips(res);
      expect(t.d1.depth, `${path}: ${res.headers.get("Server-Timing")}`).toBeLessThanOrEqual(2);
      expect(t.objects.count, path).toBe(0);
    }
  });

  it("counts nothing without the header", async () => {
    const res = await get("/members", { cookie, country: "NL" });
    await res.arrayBuffer();
    expect(res.headers.get("Server-Timing")).not.toContain("d1;");
  });
});
