/**
 * Likes: none, sent, received, match (mutual). A like is one row (liker → liked); like_new marks a
 * received like the member has not looked at yet (the top bar's new-likes badge counts them).
 */
import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Env } from "~/lib/env";
import { getDb, schema, type Db } from "../../db/client";
import { notifyMemberLater, type Later } from "./hub.server";
import { enqueue } from "./notify-queue";
import {
  cardFields,
  chosenLikers,
  likeStateOf,
  mainImageOf,
  toCard,
  type CardRow,
  type LikeState,
  type ProfileCard,
} from "./profiles.server";
import { defaultDeckStatement, searcherOf } from "./search.server";

export { likeStateOf, type LikeState };

export type LikeSource = "profile" | "swipe" | "auto" | "finder";
/** suggestions: the automatic likes, kept apart from the likes people chose (decision 214). */
export const LIKE_LIST_TYPES = ["received", "suggestions", "sent", "matches"] as const;
export type LikeListType = (typeof LIKE_LIST_TYPES)[number];

/** Who may be liked: an active, not deleted member other than oneself, with no block either way. */
export const LIKEABLE = `
  ?1 != ?2
  AND EXISTS (SELECT 1 FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ?2 AND u.deleted_at IS NULL AND p.status = 'active')
  AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ?1 AND b.blocked_id = ?2) OR (b.blocker_id = ?2 AND b.blocked_id = ?1))`;

/** The guarded like insert; `extra` adds a condition (with its own arguments from ?4 on). */
export function likeStatement(
  d1: D1Database,
  likerId: string,
  likedId: string,
  source: LikeSource,
  extra?: { sql: string; args: unknown[] },
) {
  return (
    d1
      // oxlint-disable-next-line no-restricted-properties -- guards: the like insert is conditional (LIKEABLE, plus the caller's extra guard such as swipe's daily limit) and is the first statement of a changes() chain
      .prepare(
        `INSERT INTO likes (liker_id, liked_id, source) SELECT ?1, ?2, ?3 WHERE ${LIKEABLE} ${extra?.sql ?? ""} ON CONFLICT DO NOTHING`,
      )
      .bind(likerId, likedId, source, ...(extra?.args ?? []))
  );
}

/** The like state between two members, as the viewer sees it (an automatic like is no like: decision 214). */
export async function stateBetween(d1: D1Database, viewerId: string, targetId: string): Promise<LikeState> {
  const { likes } = schema;
  const rows = await getDb(d1)
    .select({ likerId: likes.likerId, source: likes.source })
    .from(likes)
    .where(
      or(
        and(eq(likes.likerId, viewerId), eq(likes.likedId, targetId)),
        and(eq(likes.likerId, targetId), eq(likes.likedId, viewerId)),
      ),
    );
  return likeStateOf(viewerId, chosenLikers(viewerId, rows));
}

/** What liking needs: the database, the liked member's hub, the notification queue, and (in a request) its waitUntil. */
export type LikeApp = { env: Pick<Env, "DB" | "MEMBER_HUB" | "NOTIFY_QUEUE">; ctx?: Later };

/**
 * A new like tells the liked member's open tabs (their likes badge), after the response when it can,
 * and queues the like (or match) notification (app/models/notify.server.ts).
 */
export const likeNotice = async (app: LikeApp, likerId: string, likedId: string) => {
  await enqueue(app.env, { kind: "like", likerId, likedId });
  await notifyMemberLater(app.env, app.ctx, likedId, { kind: "like" });
};

/** Likes a member (idempotent); answers the new state. */
export async function like(
  app: LikeApp,
  likerId: string,
  likedId: string,
  source: LikeSource = "profile",
): Promise<LikeState> {
  const d1 = app.env.DB;
  const res = await likeStatement(d1, likerId, likedId, source).run();
  if (res.meta.changes) await likeNotice(app, likerId, likedId);
  return stateBetween(d1, likerId, likedId);
}

/** Takes a like back. */
export async function unlike(d1: D1Database, likerId: string, likedId: string) {
  const { likes } = schema;
  await getDb(d1)
    .delete(likes)
    .where(and(eq(likes.likerId, likerId), eq(likes.likedId, likedId)));
}

/**
 * The card list of one kind (docs/product/states.md §4 likes): received (new first, then the newest), suggestions (the
 * automatic likes, newest first: not a person's choice, so never "new", never a match: decision 214), sent, or
 * matches (both chose to like; the later like's time). Only active, not deleted members who did not block the member.
 * liked_back: the member already liked them (no like button).
 */
function likeListQuery(db: Db, userId: string, type: LikeListType, limit: number) {
  const { likes: l, profiles: p, users: u } = schema;
  const back = alias(l, "r");
  const toMe = type === "received" || type === "suggestions";
  const other = toMe ? l.likerId : l.likedId;
  const zero = (name: string) => sql<number>`0`.as(name);
  const likedAt =
    type === "matches"
      ? sql<number>`MAX(${l.createdAt}, ${back.createdAt})`.as("liked_at")
      : sql<number>`${l.createdAt}`.as("liked_at");
  const fields = {
    ...cardFields(),
    like_new: type === "received" ? sql<number>`${l.likeNew}`.as("like_new") : zero("like_new"),
    suggested: type === "suggestions" ? sql<number>`1`.as("suggested") : zero("suggested"),
    liked_at: likedAt,
    liked_back: toMe
      ? sql<number>`EXISTS (SELECT 1 FROM likes r WHERE r.liker_id = ${userId} AND r.liked_id = ${l.likerId})`.as(
          "liked_back",
        )
      : zero("liked_back"),
  };
  const from = db.select(fields).from(l);
  const joined =
    type === "matches"
      ? from.innerJoin(
          back,
          and(eq(back.likerId, l.likedId), eq(back.likedId, l.likerId), sql`${back.source} != 'auto'`),
        )
      : from;
  return joined
    .innerJoin(p, eq(p.userId, other))
    .innerJoin(u, eq(u.id, p.userId))
    .where(
      and(
        toMe ? eq(l.likedId, userId) : eq(l.likerId, userId),
        type === "received" ? sql`${l.source} != 'auto'` : type === "suggestions" ? eq(l.source, "auto") : undefined,
        isNull(u.deletedAt),
        eq(p.status, "active"),
        sql`NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ${p.userId} AND b.blocked_id = ${userId})`,
      ),
    )
    .orderBy(
      ...(type === "received" ? [desc(l.likeNew)] : []),
      desc(likedAt),
      ...(type === "matches" ? [] : [sql`${l}.rowid DESC`]),
    )
    .limit(limit);
}

/** `suggested`: an automatic like (source 'auto'), never shown as the other member's choice (decision 179). */
export type LikeCard = ProfileCard & { likeNew: boolean; suggested: boolean; likedBack: boolean };

export async function listLikes(
  d1: D1Database,
  userId: string,
  type: LikeListType,
  lng = "en",
  limit = 100,
): Promise<LikeCard[]> {
  const results = await likeListQuery(getDb(d1), userId, type, limit);
  const today = new Date();
  // Sent likes and matches are liked by the member by definition.
  const toMe = type === "received" || type === "suggestions";
  return results.map((r) => ({
    ...toCard(r, today, lng),
    likeNew: !!r.like_new,
    suggested: !!r.suggested,
    likedBack: !toMe || !!r.liked_back,
  }));
}

/** GET /api/likes.php: the profiles the member liked, and liked_by entries (id, like_new). */
export async function likesApi(d1: D1Database, userId: string) {
  const db = getDb(d1);
  const [sent, received, suggestions] = await db.batch([
    likeListQuery(db, userId, "sent", 200),
    likeListQuery(db, userId, "received", 200),
    likeListQuery(db, userId, "suggestions", 50),
  ]);
  const today = new Date();
  const apiProfile = (r: CardRow) => {
    const c = toCard(r, today);
    return {
      id: c.id,
      name: c.name,
      age: c.age,
      city: c.city,
      online: c.online,
      main_image: mainImageOf(c.mainPhotoId),
      // Beyond the spec's fields: a team-run profile is labelled wherever it shows (decision 179).
      fictional: c.fictional,
    };
  };
  return {
    profiles: sent.map(apiProfile),
    // Suggestions after the likes people chose, marked `suggested` (the like modal says so).
    liked_by: [...received, ...suggestions].map((r) => ({
      id: r.id,
      like_new: !!r.like_new,
      suggested: !!r.suggested,
      profile: apiProfile(r),
    })),
  };
}

/**
 * GET /api/auto-like.php (a GET by the spec): at most once a day per caller, an active team-run profile of the
 * brand that fits the caller as search's defaults do (the gender they look for, their country, around their age,
 * nearest first: decision 214) and that neither liked them nor was liked by them yet "likes" them. It is a
 * suggestion, not a like (decision 214): no new-like mark, listed under suggestions, never counted in the badge.
 * Only team-run profiles: a like is never written in a real member's name, who did not choose it (decision 179).
 * Answers the newest suggestion, or null when nothing fits.
 */
export async function autoLike(
  d1: D1Database,
  member: Parameters<typeof searcherOf>[0] & { id: string },
  today = new Date(),
) {
  const day = today.toISOString().slice(0, 10);
  const me = member.id;
  const key = `autolike:${me}:${day}`;
  const expires = Math.floor(today.getTime() / 1000) + 2 * 86_400;
  const { counters, likes: l, profiles: p, users: u } = schema;
  const fits = await defaultDeckStatement(
    d1,
    { id: me, me: searcherOf(member) },
    1,
    {
      sql: `AND p.fictional = 1 AND u.brand_id = (SELECT brand_id FROM users WHERE id = ?1)
        AND NOT EXISTS (SELECT 1 FROM likes l WHERE (l.liker_id = p.user_id AND l.liked_id = ?1) OR (l.liker_id = ?1 AND l.liked_id = p.user_id))
        AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ?1 AND b.blocked_id = p.user_id)`,
      args: [],
    },
    today,
  ).first<CardRow>();
  const pick = fits?.id ?? null;
  const db = getDb(d1);
  // Guards: the counter row claims today's suggestion (ON CONFLICT DO NOTHING); the like insert after it runs only
  // when that claim changed a row (changes() = 1, same batch), so one request a day inserts at most one.
  const [, , chosen] = await db.batch([
    db.insert(counters).values({ key, count: 1, expiresAt: expires }).onConflictDoNothing(),
    // Every column of likes in table order (liker_id, liked_id, like_new, source, created_at); like_new 0: nothing new happened.
    db
      .insert(l)
      .select(sql`SELECT ${pick}, ${me}, 0, 'auto', unixepoch() WHERE changes() = 1 AND ${pick} IS NOT NULL`)
      .onConflictDoNothing(),
    db
      .select(cardFields())
      .from(l)
      .innerJoin(p, eq(p.userId, l.likerId))
      .innerJoin(u, eq(u.id, p.userId))
      .where(and(eq(l.likedId, me), eq(l.source, "auto")))
      .orderBy(desc(l.createdAt), sql`${l}.rowid DESC`)
      .limit(1),
  ]);
  const row = chosen[0];
  if (!row) return null;
  const c = toCard(row, today);
  return { id: c.id, name: c.name, age: c.age, city: c.city, main_image: mainImageOf(c.mainPhotoId) };
}
