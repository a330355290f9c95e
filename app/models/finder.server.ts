/**
 * The match finder: members compatible both ways (each one's gender is what the other looks for),
 * within an age range and a distance, ranked by shared interests. Candidates come from the
 * profiles_search index (bounded), and only those are ranked, so the cost does not grow with the site.
 */
import { eq } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { ageOn } from "~/lib/dates";
import { CARD_COLUMNS, toCard, type CardRow, type ProfileCard } from "./profiles.server";
import { birthDateRange } from "./search.server";
import { DISTANCES_KM, MAX_AGE, MIN_AGE } from "./profile-options";
import { z } from "zod";
import { lazy } from "~/lib/lazy";

export { DISTANCES_KM };
const CANDIDATES = 300;
const RESULTS = 24;

type Gender = "male" | "female";
const other = (g: Gender): Gender => (g === "male" ? "female" : "male");

/** The genders someone with this gender and sexuality looks for. */
export function wantedGenders(gender: Gender, sexuality: string): Gender[] {
  if (sexuality === "bi") return ["female", "male"];
  if (sexuality === "gay" || sexuality === "lesbian") return [gender];
  return [other(gender)];
}

/** The sexualities of a `candidate`-gender member who would look for a `seeker`-gender member. */
export function sexualitiesSeeking(seeker: Gender, candidate: Gender): string[] {
  if (seeker !== candidate) return ["hetero", "bi"];
  return [candidate === "male" ? "gay" : "lesbian", "bi"];
}

/** Both ways: does each look for the other's gender? */
export function compatible(a: { gender: Gender; sexuality: string }, b: { gender: Gender; sexuality: string }) {
  return (
    wantedGenders(a.gender, a.sexuality).includes(b.gender) && wantedGenders(b.gender, b.sexuality).includes(a.gender)
  );
}

export const FinderQuery = lazy(() =>
  z.object({
    min_age: z.coerce.number().int().min(MIN_AGE).max(MAX_AGE).optional().catch(undefined),
    max_age: z.coerce.number().int().min(MIN_AGE).max(MAX_AGE).optional().catch(undefined),
    distance: z.coerce
      .number()
      .int()
      .refine((d) => (DISTANCES_KM as readonly number[]).includes(d))
      .optional()
      .catch(undefined),
  }),
);

export interface FinderFilters {
  min_age: number;
  max_age: number;
  distance: number | null;
}
export type FinderMatch = ProfileCard & { shared: number };

export async function findMatches(d1: D1Database, userId: string, params: URLSearchParams, lng = "en") {
  const { profiles } = schema;
  const [me] = await getDb(d1)
    .select({
      gender: profiles.gender,
      sexuality: profiles.sexuality,
      country: profiles.country,
      date_of_birth: profiles.dateOfBirth,
      lat: profiles.lat,
      lon: profiles.lon,
    })
    .from(profiles)
    .where(eq(profiles.userId, userId));
  if (!me) return null;
  const q = FinderQuery().parse(Object.fromEntries(params));
  const age = ageOn(me.date_of_birth);
  let min = q.min_age ?? Math.max(MIN_AGE, age - 10);
  let max = q.max_age ?? Math.min(MAX_AGE, age + 10);
  if (min > max) [min, max] = [max, min];
  const hasPosition = me.lat !== null && me.lon !== null;
  const filters: FinderFilters = { min_age: min, max_age: max, distance: hasPosition ? (q.distance ?? null) : null };
  const { from, to } = birthDateRange(min, max);
  const km = filters.distance;
  const dLat = km ? km / 111 : 0;
  const dLon = km ? km / (111 * Math.max(0.1, Math.cos(((me.lat ?? 0) * Math.PI) / 180))) : 0;
  const box = km ? "AND p.lat BETWEEN ?6 - ?8 AND ?6 + ?8 AND p.lon BETWEEN ?7 - ?9 AND ?7 + ?9" : "AND ?8 = ?9";
  const statements = wantedGenders(me.gender, me.sexuality).map((g) => {
    const [s1, s2] = sexualitiesSeeking(me.gender, g);
    return (
      d1
        // oxlint-disable-next-line no-restricted-properties -- INDEXED BY profiles_search: the builder cannot say it, and without it D1's planner (no statistics) walks the wrong index
        .prepare(
          `SELECT c.*, (SELECT COUNT(*) FROM profile_interests a JOIN profile_interests b ON b.interest_id = a.interest_id
                      WHERE a.user_id = ?1 AND b.user_id = c.id) AS shared
         FROM (SELECT ${CARD_COLUMNS} FROM profiles p INDEXED BY profiles_search JOIN users u ON u.id = p.user_id
               WHERE p.status = 'active' AND p.gender = ?2 AND p.country = ?3 AND p.date_of_birth BETWEEN ?4 AND ?5
                 AND p.sexuality IN (?10, ?11) ${box}
                 AND p.user_id != ?1 AND u.deleted_at IS NULL AND u.invisible = 0
                 AND NOT EXISTS (SELECT 1 FROM likes l WHERE l.liker_id = ?1 AND l.liked_id = p.user_id)
                 AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = p.user_id AND b.blocked_id = ?1) OR (b.blocker_id = ?1 AND b.blocked_id = p.user_id))
               ORDER BY p.date_of_birth DESC LIMIT ?12) c
         ORDER BY shared DESC, c.last_seen_at DESC LIMIT ?13`,
        )
        .bind(userId, g, me.country, from, to, me.lat, me.lon, dLat, dLon, s1, s2, CANDIDATES, RESULTS)
    );
  });
  const batches = await d1.batch<CardRow & { shared: number }>(statements);
  const today = new Date();
  const matches: FinderMatch[] = batches
    .flatMap((b) => b.results)
    .sort((a, b) => b.shared - a.shared)
    .slice(0, RESULTS)
    .map((r) => ({ ...toCard(r, today, lng), shared: r.shared }));
  return { filters, hasPosition, matches };
}
