/**
 * The landing page's strip of real members: recently active profiles of the brand's audience (the
 * niche decides gender and age), with a main photo. Only name, age and city leave the server.
 */
import { nearList } from "~/lib/near-list";
import { ageOn } from "~/lib/dates";
import type { Niche } from "~/lib/constants";
import type { Env } from "~/lib/env";
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

// CROSS JOIN keeps users as the outer loop, so SQLite walks users_recent newest first and stops after
// 12 matches instead of sorting every matching profile (the planner has no statistics on D1).
const MEMBER_COLUMNS =
  "p.user_id AS id, p.name, p.date_of_birth, p.city, p.country, p.main_photo_id, p.lat, p.lon, u.last_seen_at";
// Only approved main photos are advertised to visitors (decision 175), whatever the brand's review mode;
// team-run (fictional) profiles never appear on public pages as members (decision 179).
const AUDIENCE = `p.status = 'active' AND ${approvedPhotoSql("p.main_photo_id")} IS NOT NULL AND p.fictional = 0
  AND p.gender IN (?1, ?2) AND p.date_of_birth <= ?3 AND p.date_of_birth > ?4`;
export const RECENT_MEMBERS_SQL = `
SELECT ${MEMBER_COLUMNS}
FROM users u CROSS JOIN profiles p ON p.user_id = u.id
WHERE u.deleted_at IS NULL AND u.invisible = 0 AND ${AUDIENCE}
ORDER BY u.last_seen_at DESC
LIMIT ${LANDING_MEMBERS_LIMIT}`;

/** How many of the most recently active members the "near you" pick looks through (bounds the scan). */
export const NEAR_SCAN = 2000;
// The same walk limited to the visitor's country, over a bounded window of recent members, so a
// country without members never scans the whole table; rows come in the window's (index) order.
export const NEAR_MEMBERS_SQL = `
SELECT ${MEMBER_COLUMNS}
FROM (SELECT id, last_seen_at FROM users WHERE deleted_at IS NULL AND invisible = 0 ORDER BY last_seen_at DESC LIMIT ${NEAR_SCAN}) u
CROSS JOIN profiles p ON p.user_id = u.id
WHERE p.country = ?5 AND ${AUDIENCE}
LIMIT ${LANDING_MEMBERS_LIMIT}`;

type MemberRow = {
  id: string;
  name: string;
  date_of_birth: string;
  city: string;
  country: string;
  main_photo_id: string;
  lat: number | null;
  lon: number | null;
  last_seen_at: number;
};

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
  db: D1Database,
  niche: Niche,
  minAge: number,
  country: string,
  today = new Date(),
): Promise<LandingMember[]> {
  const audience = NICHE_AUDIENCE[niche];
  const [g1, g2 = g1] = audience.genders;
  const bornBy = yearsBefore(today, Math.max(minAge, audience.minAge ?? 0));
  const bornAfter = yearsBefore(today, (audience.maxAge ?? 120) + 1);
  const [near, recent] = await db.batch<MemberRow>([
    db.prepare(NEAR_MEMBERS_SQL).bind(g1, g2, bornBy, bornAfter, country),
    db.prepare(RECENT_MEMBERS_SQL).bind(g1, g2, bornBy, bornAfter),
  ]);
  const seen = new Set<string>();
  const nowS = Math.floor(today.getTime() / 1000);
  return [...near!.results, ...recent!.results]
    .filter((r) => !seen.has(r.id) && seen.add(r.id))
    .slice(0, LANDING_MEMBERS_LIMIT)
    .map((r) => ({
      id: r.id,
      name: r.name,
      age: ageOn(r.date_of_birth, today),
      city: r.city,
      country: r.country,
      photoId: r.main_photo_id,
      seenAgo: Math.max(0, nowS - r.last_seen_at),
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
