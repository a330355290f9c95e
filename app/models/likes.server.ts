/**
 * Likes: none, sent, received, match (mutual). A like is one row (liker → liked); like_new marks a
 * received like the member has not looked at yet (the top bar's new-likes badge counts them).
 */
import { and, eq, or } from "drizzle-orm";
import type { Env } from "~/lib/env";
import { getDb, schema } from "../../db/client";
import { notifyMemberLater, type Later } from "./hub.server";
import { enqueue } from "./notify-queue";
import {
  CARD_COLUMNS,
  likeStateOf,
  mainImageOf,
  toCard,
  type CardRow,
  type LikeState,
  type ProfileCard,
} from "./profiles.server";

export { likeStateOf, type LikeState };

export type LikeSource = "profile" | "swipe" | "auto" | "finder";
export const LIKE_LIST_TYPES = ["received", "sent", "matches"] as const;
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

/** The like state between two members, as the viewer sees it. */
export async function stateBetween(d1: D1Database, viewerId: string, targetId: string): Promise<LikeState> {
  const { likes } = schema;
  const rows = await getDb(d1)
    .select({ likerId: likes.likerId })
    .from(likes)
    .where(
      or(
        and(eq(likes.likerId, viewerId), eq(likes.likedId, targetId)),
        and(eq(likes.likerId, targetId), eq(likes.likedId, viewerId)),
      ),
    );
  return likeStateOf(
    viewerId,
    rows.map((r) => r.likerId),
  );
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

const VISIBLE = `u.deleted_at IS NULL AND p.status = 'active'
  AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = p.user_id AND b.blocked_id = ?1)`;

const LIST_SQL: Record<LikeListType, string> = {
  // New likes first, then the newest.
  // suggested: an automatic like (decision 179); liked_back: the member already answered it (no "like back" button).
  received: `SELECT ${CARD_COLUMNS}, l.like_new, l.source = 'auto' AS suggested, l.created_at AS liked_at,
      EXISTS (SELECT 1 FROM likes r WHERE r.liker_id = ?1 AND r.liked_id = l.liker_id) AS liked_back FROM likes l
    JOIN profiles p ON p.user_id = l.liker_id JOIN users u ON u.id = p.user_id
    WHERE l.liked_id = ?1 AND ${VISIBLE} ORDER BY l.like_new DESC, l.created_at DESC, l.rowid DESC LIMIT ?2`,
  sent: `SELECT ${CARD_COLUMNS}, 0 AS like_new, 0 AS suggested, l.created_at AS liked_at FROM likes l
    JOIN profiles p ON p.user_id = l.liked_id JOIN users u ON u.id = p.user_id
    WHERE l.liker_id = ?1 AND ${VISIBLE} ORDER BY l.created_at DESC, l.rowid DESC LIMIT ?2`,
  matches: `SELECT ${CARD_COLUMNS}, 0 AS like_new, 0 AS suggested, MAX(l.created_at, r.created_at) AS liked_at FROM likes l
    JOIN likes r ON r.liker_id = l.liked_id AND r.liked_id = l.liker_id
    JOIN profiles p ON p.user_id = l.liked_id JOIN users u ON u.id = p.user_id
    WHERE l.liker_id = ?1 AND ${VISIBLE} ORDER BY liked_at DESC LIMIT ?2`,
};

/** `suggested`: an automatic like (source 'auto'), never shown as the other member's choice (decision 179). */
export type LikeCard = ProfileCard & { likeNew: boolean; suggested: boolean; likedBack: boolean };

export async function listLikes(
  d1: D1Database,
  userId: string,
  type: LikeListType,
  lng = "en",
  limit = 100,
): Promise<LikeCard[]> {
  const { results } = await d1
    .prepare(LIST_SQL[type])
    .bind(userId, limit)
    .all<CardRow & { like_new: number; suggested?: number; liked_back?: number }>();
  const today = new Date();
  // Sent likes and matches are liked by the member by definition.
  return results.map((r) => ({
    ...toCard(r, today, lng),
    likeNew: !!r.like_new,
    suggested: !!r.suggested,
    likedBack: type !== "received" || !!r.liked_back,
  }));
}

/** GET /api/likes.php: the profiles the member liked, and liked_by entries (id, like_new). */
export async function likesApi(d1: D1Database, userId: string) {
  const [sent, received] = await d1.batch<CardRow & { like_new: number; suggested: number }>([
    d1.prepare(LIST_SQL.sent).bind(userId, 200),
    d1.prepare(LIST_SQL.received).bind(userId, 200),
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
    profiles: sent!.results.map(apiProfile),
    liked_by: received!.results.map((r) => ({
      id: r.id,
      like_new: !!r.like_new,
      suggested: !!r.suggested,
      profile: apiProfile(r),
    })),
  };
}

/**
 * GET /api/auto-like.php (a GET by the spec): an active member of the brand who has not liked the
 * caller yet likes them, at most once a day per caller, so repeated calls cannot flood likes.
 * Fictional (team-run) profiles are chosen first. Answers that profile, or null.
 */
export async function autoLike(d1: D1Database, userId: string, today = new Date()) {
  const day = today.toISOString().slice(0, 10);
  const key = `autolike:${userId}:${day}`;
  const expires = Math.floor(today.getTime() / 1000) + 2 * 86_400;
  const pick = `SELECT p.user_id FROM profiles p JOIN users u ON u.id = p.user_id
    WHERE u.brand_id = (SELECT brand_id FROM users WHERE id = ?1) AND p.status = 'active' AND u.deleted_at IS NULL
      AND p.user_id != ?1 AND p.gender != (SELECT gender FROM profiles WHERE user_id = ?1)
      AND NOT EXISTS (SELECT 1 FROM likes l WHERE l.liker_id = p.user_id AND l.liked_id = ?1)
      AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ?1 AND b.blocked_id = p.user_id) OR (b.blocker_id = p.user_id AND b.blocked_id = ?1))
    ORDER BY p.fictional DESC, u.last_seen_at DESC LIMIT 1`;
  // The counter row claims today's auto-like; the insert only happens for the request that claimed it.
  const [, , chosen] = await d1.batch<unknown>([
    d1
      // oxlint-disable-next-line no-restricted-properties -- guards: the counter row claims today's auto-like (ON CONFLICT DO NOTHING); the insert after it runs only on changes() = 1
      .prepare("INSERT INTO counters (key, count, expires_at) VALUES (?1, 1, ?2) ON CONFLICT DO NOTHING")
      .bind(key, expires),
    d1
      // oxlint-disable-next-line no-restricted-properties -- guards: inserts the auto-like only when the counter claim before it changed a row (changes() = 1), same batch
      .prepare(
        `INSERT INTO likes (liker_id, liked_id, source) SELECT (${pick}), ?1, 'auto'
       WHERE changes() = 1 AND (${pick}) IS NOT NULL`,
      )
      .bind(userId),
    d1
      .prepare(
        `SELECT ${CARD_COLUMNS} FROM likes l JOIN profiles p ON p.user_id = l.liker_id JOIN users u ON u.id = p.user_id
       WHERE l.liked_id = ?1 AND l.source = 'auto' ORDER BY l.created_at DESC, l.rowid DESC LIMIT 1`,
      )
      .bind(userId),
  ]);
  const row = (chosen!.results as CardRow[])[0];
  if (!row) return null;
  const c = toCard(row, today);
  return { id: c.id, name: c.name, age: c.age, city: c.city, main_image: mainImageOf(c.mainPhotoId) };
}
