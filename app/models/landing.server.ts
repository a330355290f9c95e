/**
 * The landing page's strip of real members: recently active profiles of the brand's audience (the
 * niche decides gender and age), with a main photo. Only name, age and city leave the server.
 */
import { nearList } from "~/lib/near-list";
import { ageOn } from "~/lib/dates";
import type { Niche } from "~/lib/constants";
import type { Env } from "~/lib/env";
import { and, desc, eq, gt, inArray, isNull, lte, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { getDb, schema, type Db } from "../../db/client";
import { approvedPhotoSql } from "./photos.server";

export interface LandingMember {
  id: string;
  name: string;
  age: number;
  city: string;
  country: string;
  photoId: string;
  /** Seconds since the member was last seen (the social feed's "5 minutes ago"). */
  seenAgo: number;
  /** City-level position; stays on the server (the map lander turns it into coarse grid cells). */
  lat: number | null;
  lon: number | null;
}

type Gender = "male" | "female";
export const NICHE_AUDIENCE: Record<Niche, { genders: [Gender, Gender?]; minAge?: number; maxAge?: number }> = {
  general: { genders: ["female"] },
  she: { genders: ["female"] },
  bdsm: { genders: ["female", "male"] },
  bbw: { genders: ["female"] },
  gilf: { genders: ["female"], minAge: 55 },
  milf: { genders: ["female"], minAge: 35, maxAge: 55 },
  gay: { genders: ["male"] },
};

export const LANDING_MEMBERS_LIMIT = 12;

/** Who the strip shows: genders g1/g2, born in (bornAfter, bornBy]. */
export type Audience = { g1: Gender; g2: Gender; bornBy: string; bornAfter: string };

/** What a strip row reads of a profile and its user `u` (the users table or the recent-window subquery). */
function memberFields(u: { lastSeenAt: SQLiteColumn }) {
  const p = schema.profiles;
  return {
    id: p.userId,
    name: p.name,
    dateOfBirth: p.dateOfBirth,
    city: p.city,
    country: p.country,
    mainPhotoId: sql<string>`${p.mainPhotoId}`.as("main_photo_id"),
    lat: p.lat,
    lon: p.lon,
    lastSeenAt: u.lastSeenAt,
  };
}

// Only approved main photos are advertised to visitors (decision 175), whatever the brand's review mode;
// team-run (fictional) profiles never appear on public pages as members (decision 179).
function audienceOf(a: Audience) {
  const p = schema.profiles;
  return and(
    eq(p.status, "active"),
    sql`${sql.raw(approvedPhotoSql('"profiles"."main_photo_id"'))} IS NOT NULL`,
    eq(p.fictional, false),
    inArray(p.gender, [a.g1, a.g2]),
    lte(p.dateOfBirth, a.bornBy),
    gt(p.dateOfBirth, a.bornAfter),
  );
}

// CROSS JOIN keeps users as the outer loop, so SQLite walks users_recent newest first and stops after
// 12 matches instead of sorting every matching profile (the planner has no statistics on D1). drizzle's
// crossJoin has no ON: the join condition stands in the WHERE, which leaves the order as written.
export function recentMembersQuery(db: Db, a: Audience) {
  const { users: u, profiles: p } = schema;
  return db
    .select(memberFields(u))
    .from(u)
    .crossJoin(p)
    .where(and(eq(p.userId, u.id), isNull(u.deletedAt), eq(u.invisible, false), audienceOf(a)))
    .orderBy(desc(u.lastSeenAt))
    .limit(LANDING_MEMBERS_LIMIT);
}

/** How many of the most recently active members the "near you" pick looks through (bounds the scan). */
export const NEAR_SCAN = 2000;
// The same walk limited to the visitor's country, over a bounded window of recent members, so a
// country without members never scans the whole table; rows come in the window's (index) order.
export function nearMembersQuery(db: Db, a: Audience, country: string) {
  const { users, profiles: p } = schema;
  const u = db
    .select({ id: users.id, lastSeenAt: users.lastSeenAt })
    .from(users)
    .where(and(isNull(users.deletedAt), eq(users.invisible, false)))
    .orderBy(desc(users.lastSeenAt))
    .limit(NEAR_SCAN)
    .as("u");
  return db
    .select(memberFields(u))
    .from(u)
    .crossJoin(p)
    .where(and(eq(p.userId, u.id), eq(p.country, country), audienceOf(a)))
    .limit(LANDING_MEMBERS_LIMIT);
}

/** The date `years` before `today` as YYYY-MM-DD (the same form as profiles.date_of_birth). */
function yearsBefore(today: Date, years: number): string {
  const d = new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate()));
  return d.toISOString().slice(0, 10);
}

/**
 * Up to 12 recently active members the brand's visitors want to meet, those in the visitor's country
 * first ("near you"), then the most recent of everywhere; two indexed queries in one D1 batch.
 */
export async function recentLandingMembers(
  d1: D1Database,
  niche: Niche,
  minAge: number,
  country: string,
  today = new Date(),
): Promise<LandingMember[]> {
  const audience = NICHE_AUDIENCE[niche];
  const [g1, g2 = g1] = audience.genders;
  const bornBy = yearsBefore(today, Math.max(minAge, audience.minAge ?? 0));
  const bornAfter = yearsBefore(today, (audience.maxAge ?? 120) + 1);
  const a: Audience = { g1, g2, bornBy, bornAfter };
  const db = getDb(d1);
  const [near, recent] = await db.batch([nearMembersQuery(db, a, country), recentMembersQuery(db, a)]);
  const seen = new Set<string>();
  const nowS = Math.floor(today.getTime() / 1000);
  return [...near, ...recent]
    .filter((r) => !seen.has(r.id) && seen.add(r.id))
    .slice(0, LANDING_MEMBERS_LIMIT)
    .map((r) => ({
      id: r.id,
      name: r.name,
      age: ageOn(r.dateOfBirth, today),
      city: r.city,
      country: r.country,
      photoId: r.mainPhotoId,
      seenAgo: Math.max(0, nowS - r.lastSeenAt),
      lat: r.lat,
      lon: r.lon,
    }));
}

const STRIP_CACHE_MS = 60_000;
const stripCache = new Map<string, { at: number; members: Promise<LandingMember[]> }>();

/**
 * The strip is the same for every visitor of a niche and country: each isolate reuses it for a minute,
 * so a landing render usually costs no D1 round trip. Tests (ENVIRONMENT=test) always read fresh rows.
 */
export function landingMembers(
  env: Pick<Env, "DB" | "ENVIRONMENT">,
  niche: Niche,
  minAge: number,
  country: string,
): Promise<LandingMember[]> {
  if (env.ENVIRONMENT === "test") return recentLandingMembers(env.DB, niche, minAge, country);
  const key = `${niche}:${minAge}:${country}`;
  const hit = stripCache.get(key);
  if (hit && Date.now() - hit.at < STRIP_CACHE_MS) return hit.members;
  if (stripCache.size > 500) stripCache.clear(); // niches × countries: bounded, but never unbounded
  const members = recentLandingMembers(env.DB, niche, minAge, country);
  stripCache.set(key, { at: Date.now(), members });
  members.catch(() => stripCache.delete(key));
  return members;
}

/** What a member card on a public page shows: name, age, city and photo, nothing finer. */
export type StripMember = Pick<LandingMember, "id" | "name" | "age" | "city" | "photoId">;
/**
 * The landing's strip: the members in the visitor's country when there are any ("near you" means
 * near), else the most recent of everywhere under a title that promises nothing about distance.
 */
export function landingStrip(members: LandingMember[], country: string): { near: boolean; members: StripMember[] } {
  const { near, list } = nearList(members, (m) => m.country === country);
  return { near, members: list.map(toStrip) };
}

export const toStrip = ({ id, name, age, city, photoId }: LandingMember): StripMember => ({
  id,
  name,
  age,
  city,
  photoId,
});
