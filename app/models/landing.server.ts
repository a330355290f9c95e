/**
 * The landing page's strip of real members: recently active profiles of the brand's audience (the
 * niche decides gender and age), with a main photo. Only name, age and city leave the server.
 */
import { ageOn } from "~/lib/dates";
import type { Niche } from "~/lib/constants";
import type { Env } from "~/lib/env";

export interface LandingMember {
  id: string;
  name: string;
  age: number;
  city: string;
  photoId: string;
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
export const RECENT_MEMBERS_SQL = `
SELECT p.user_id AS id, p.name, p.date_of_birth, p.city, p.main_photo_id
FROM users u CROSS JOIN profiles p ON p.user_id = u.id
WHERE u.deleted_at IS NULL AND u.invisible = 0
  AND p.status = 'active' AND p.main_photo_id IS NOT NULL
  AND p.gender IN (?1, ?2) AND p.date_of_birth <= ?3 AND p.date_of_birth > ?4
ORDER BY u.last_seen_at DESC
LIMIT ${LANDING_MEMBERS_LIMIT}`;

/** The date `years` before `today` as YYYY-MM-DD (the same form as profiles.date_of_birth). */
function yearsBefore(today: Date, years: number): string {
  const d = new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate()));
  return d.toISOString().slice(0, 10);
}


/** Up to 12 recently active members the brand's visitors want to meet; one indexed D1 query. */
export async function recentLandingMembers(db: D1Database, niche: Niche, minAge: number, today = new Date()): Promise<LandingMember[]> {
  const audience = NICHE_AUDIENCE[niche];
  const [g1, g2 = g1] = audience.genders;
  const bornBy = yearsBefore(today, Math.max(minAge, audience.minAge ?? 0));
  const bornAfter = yearsBefore(today, (audience.maxAge ?? 120) + 1);
  const { results } = await db
    .prepare(RECENT_MEMBERS_SQL)
    .bind(g1, g2, bornBy, bornAfter)
    .all<{ id: string; name: string; date_of_birth: string; city: string; main_photo_id: string }>();
  return results.map((r) => ({
    id: r.id,
    name: r.name,
    age: ageOn(r.date_of_birth, today),
    city: r.city,
    photoId: r.main_photo_id,
  }));
}

const STRIP_CACHE_MS = 60_000;
const stripCache = new Map<string, { at: number; members: Promise<LandingMember[]> }>();

/**
 * The strip is the same for every visitor of a niche: each isolate reuses it for a minute, so a landing
 * render usually costs no D1 round trip. Tests (ENVIRONMENT=test) always read fresh rows.
 */
export function landingMembers(env: Pick<Env, "DB" | "ENVIRONMENT">, niche: Niche, minAge: number): Promise<LandingMember[]> {
  if (env.ENVIRONMENT === "test") return recentLandingMembers(env.DB, niche, minAge);
  const key = `${niche}:${minAge}`;
  const hit = stripCache.get(key);
  if (hit && Date.now() - hit.at < STRIP_CACHE_MS) return hit.members;
  const members = recentLandingMembers(env.DB, niche, minAge);
  stripCache.set(key, { at: Date.now(), members });
  members.catch(() => stripCache.delete(key));
  return members;
}
