/**
 * The swipe game: one card at a time, like or pass. At most SWIPE_LIKES_PER_DAY likes a (UTC) day,
 * exact under concurrency: the count and the insert are one statement, and D1 runs writes one at a time.
 * The count is of likes GIVEN today (a day counter raised with each swipe like, in the same batch),
 * so unliking does not refill the quota (decision 053).
 */
import { eq, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { SWIPE_LIKES_PER_DAY } from "~/lib/constants";
import { likeNotice, likeStatement, stateBetween, type LikeApp } from "./likes.server";
import { toCard, type CardRow, type ProfileCard } from "./profiles.server";
import { defaultDeckStatement, searcherOf } from "./search.server";

export const dayStart = (now = new Date()) =>
  Math.floor(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) / 1000);

const counterKey = (userId: string, now: Date) => `swipe:${userId}:${dayStart(now)}`;
const COUNT_TODAY = "SELECT COALESCE((SELECT count FROM counters WHERE key = ?4), 0)";
const countToday = (d1: D1Database, userId: string, now: Date) =>
  // oxlint-disable-next-line no-restricted-properties -- goes into the swipe cards' raw batch beside the INDEXED BY read
  d1.prepare(`${COUNT_TODAY} AS n`).bind(null, null, null, counterKey(userId, now));

/** "match" when the liked member already liked back: the game shows the match moment (decision 180). */
export type SwipeResult = "liked" | "match" | "limit" | "invalid";

export async function swipeLike(
  app: LikeApp,
  userId: string,
  targetId: string,
  now = new Date(),
): Promise<SwipeResult> {
  const d1 = app.env.DB;
  const key = counterKey(userId, now);
  const [res] = await d1.batch([
    likeStatement(d1, userId, targetId, "swipe", {
      sql: `AND (${COUNT_TODAY}) < ?5`,
      args: [key, SWIPE_LIKES_PER_DAY],
    }),
    d1
      // oxlint-disable-next-line no-restricted-properties -- guards: counts the like only when the like insert before it changed a row (changes() = 1), same batch
      .prepare(
        `INSERT INTO counters (key, count, expires_at) SELECT ?1, 1, ?2 WHERE changes() = 1
       ON CONFLICT(key) DO UPDATE SET count = count + 1`,
      )
      .bind(key, dayStart(now) + 2 * 86_400),
  ]);
  if (res!.meta.changes) {
    await likeNotice(app, userId, targetId);
    return (await stateBetween(d1, userId, targetId)) === "match" ? "match" : "liked";
  }
  return (await likesLeft(d1, userId, now)) === 0 ? "limit" : "invalid";
}

export async function likesLeft(d1: D1Database, userId: string, now = new Date()) {
  const used = await countToday(d1, userId, now).first<number>("n");
  return Math.max(0, SWIPE_LIKES_PER_DAY - (used ?? 0));
}

export async function swipePass(d1: D1Database, userId: string, targetId: string) {
  if (userId === targetId) return;
  const { swipePasses, users } = schema;
  // Only a member who exists can be passed (the id comes from the request).
  await getDb(d1)
    .insert(swipePasses)
    .select(
      sql`SELECT ${userId}, ${targetId}, unixepoch() WHERE EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${targetId})`,
    )
    .onConflictDoNothing();
}

/**
 * The next cards: search's defaults and order (the gender the player looks for, their country, around their
 * age, nearest first: decision 214), less those already liked, passed or blocked.
 */
export async function nextCards(
  d1: D1Database,
  player: Parameters<typeof searcherOf>[0] & { id: string },
  limit = 5,
  lng = "en",
): Promise<{ cards: ProfileCard[]; likesLeft: number }> {
  const userId = player.id;
  const [cards, used] = await d1.batch<unknown>([
    defaultDeckStatement(d1, { id: userId, me: searcherOf(player) }, limit, {
      sql: `AND NOT EXISTS (SELECT 1 FROM likes l WHERE l.liker_id = ?1 AND l.liked_id = p.user_id)
         AND NOT EXISTS (SELECT 1 FROM swipe_passes s WHERE s.user_id = ?1 AND s.target_id = p.user_id)
         AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ?1 AND b.blocked_id = p.user_id)`,
      args: [],
    }),
    countToday(d1, userId, new Date()),
  ]);
  const n = (used!.results as { n: number }[])[0]?.n ?? 0;
  return {
    cards: (cards!.results as CardRow[]).map((r) => toCard(r, new Date(), lng)),
    likesLeft: Math.max(0, SWIPE_LIKES_PER_DAY - n),
  };
}

/**
 * The match moment after a swipe like: the other member's name and photo, only while the like is
 * mutual (the id comes from the URL, so a made-up or one-sided id shows nothing).
 */
export async function swipeMatch(
  d1: D1Database,
  userId: string,
  targetId: string,
): Promise<{ id: string; name: string; mainPhotoId: string | null } | null> {
  if (userId === targetId || (await stateBetween(d1, userId, targetId)) !== "match") return null;
  const { profiles } = schema;
  const [row] = await getDb(d1)
    .select({ id: profiles.userId, name: profiles.name, mainPhotoId: profiles.mainPhotoId })
    .from(profiles)
    .where(eq(profiles.userId, targetId))
    .limit(1);
  return row ?? null;
}
