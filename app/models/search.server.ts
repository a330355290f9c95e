/**
 * Member search (/members). Every query has equality on status, gender and country (and region when
 * given) and a range on date_of_birth, so it walks the profiles_search / profiles_search_region
 * index in date order and stops at the page size: no full scan, whatever the member count.
 */
import { z } from "zod";
import { lazy } from "~/lib/lazy";
import { ageOn } from "~/lib/dates";
import { CARD_COLUMNS, ONLINE_WINDOW_S, toCard, type CardRow, type ProfileCard } from "./profiles.server";
import { regionsIn, regionsStatement, type Region, type RegionRow } from "./geo.server";
import { DISTANCES, MAX_AGE, MIN_AGE } from "./profile-options";

export { MAX_AGE, MIN_AGE };

export const PAGE_SIZE = 24;
/** Counting stops here; the page says "1000+". */
export const COUNT_CAP = 1000;
/** Fewer results than this add similar results (same gender and country, any region and age). */
export const SIMILAR_BELOW = 6;

/** The default age range: this many years either side of the member's own age (decision 180). */
export const AGE_AROUND = 7;

export const SearchQuery = lazy(() =>
  z.object({
    gender: z.enum(["male", "female"]).optional().catch(undefined),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .optional()
      .catch(undefined),
    countryregion: z.string().max(20).optional().catch(undefined),
    min_age: z.coerce.number().int().min(MIN_AGE).max(MAX_AGE).optional().catch(undefined),
    max_age: z.coerce.number().int().min(MIN_AGE).max(MAX_AGE).optional().catch(undefined),
    page: z.coerce.number().int().min(1).max(500).optional().catch(undefined),
    online: z.literal("1").optional().catch(undefined),
    photo: z.literal("1").optional().catch(undefined),
    distance: z.coerce
      .number()
      .pipe(z.union(DISTANCES.map((d) => z.literal(d)) as unknown as [z.ZodLiteral<number>, z.ZodLiteral<number>]))
      .optional()
      .catch(undefined),
  }),
);

export interface SearchFilters {
  gender: "male" | "female";
  country: string;
  countryregion: string;
  min_age: number;
  max_age: number;
  page: number;
  /** Only members online now / with a profile photo / within this many km of the member's city. */
  online: boolean;
  photo: boolean;
  distance: number | null;
}

/** Where the searching member is (their city's position) for "nearest first" and the distance filter. */
export type SearchOrigin = { lat: number; lon: number } | null;

/**
 * The filters of a request, with defaults that keep the query on the index: the gender a member
 * looks for (from their own gender and sexuality), else female; their country, else the visitor's
 * country when the brand serves it, else the brand's first country.
 */
export function resolveFilters(
  params: URLSearchParams,
  defaults: { gender?: "male" | "female"; country: string; countries: string[]; age?: number | null },
  origin: SearchOrigin = null,
): SearchFilters {
  const q = SearchQuery().parse(Object.fromEntries(params));
  const country = q.country && defaults.countries.includes(q.country) ? q.country : defaults.country;
  // A member's search starts around their own age (not 18–99); a visitor's stays wide.
  const around = defaults.age ?? null;
  let min = q.min_age ?? (around ? Math.max(MIN_AGE, around - AGE_AROUND) : MIN_AGE);
  let max = q.max_age ?? (around ? Math.min(MAX_AGE, around + AGE_AROUND) : MAX_AGE);
  if (min > max) [min, max] = [max, min];
  return {
    gender: q.gender ?? defaults.gender ?? "female",
    country,
    countryregion: q.country === country ? (q.countryregion ?? "") : "",
    min_age: min,
    max_age: max,
    page: q.page ?? 1,
    online: q.online === "1",
    photo: q.photo === "1",
    // Distance needs the member's own position; in another country it means nothing.
    distance: origin && q.distance ? q.distance : null,
  };
}

/** The gender a member is looking for. */
export function wantedGender(gender: string, sexuality: string): "male" | "female" {
  const same = sexuality === "gay" || sexuality === "lesbian";
  return (gender === "male") === same ? "male" : "female";
}

/** Oldest and youngest dates of birth for an age range on a given day (ISO dates compare as text). */
export function birthDateRange(minAge: number, maxAge: number, today = new Date()) {
  const shift = (years: number, days = 0) => {
    const d = new Date(Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate() + days));
    return d.toISOString().slice(0, 10);
  };
  // Age >= minAge: born on or before today minus minAge years. Age <= maxAge: born after today minus (maxAge + 1) years.
  return { from: shift(maxAge + 1, 1), to: shift(minAge) };
}

const VISIBLE_TO = `u.deleted_at IS NULL AND u.invisible = 0 AND p.user_id != ?1
  AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = p.user_id AND b.blocked_id = ?1)`;

/**
 * Online now first, then with a photo, then nearest (squared degrees, longitude scaled by the
 * latitude's cosine: an order, never shown), then youngest. The index still bounds the rows (status,
 * gender, country, the age range); the order sorts that range (decision 180).
 */
const ORDER = `ORDER BY (u.invisible = 0 AND u.last_seen_at >= ?7) DESC, (p.main_photo_id IS NOT NULL) DESC,
  CASE WHEN ?8 IS NULL OR p.lat IS NULL THEN 1e9 ELSE (p.lat - ?8) * (p.lat - ?8) + (p.lon - ?9) * (p.lon - ?9) * ?12 END,
  p.date_of_birth DESC`;

/** The WHERE of a search and its arguments ?1 to ?12 (pages bind ?13 and ?14, a caller's own conditions ?15 on). */
function searchWhere(f: SearchFilters, viewerId: string, today: Date, origin: SearchOrigin) {
  const { from: born0, to: born1 } = birthDateRange(f.min_age, f.max_age, today);
  const region = f.countryregion ? "AND p.region = ?6" : "AND ?6 = ''";
  // Without statistics SQLite may pick the shorter index for a region search; name the one that fits.
  const from = `profiles p INDEXED BY ${f.countryregion ? "profiles_search_region" : "profiles_search"} JOIN users u ON u.id = p.user_id`;
  const filters = [
    f.online ? "AND u.invisible = 0 AND u.last_seen_at >= ?7" : "",
    f.photo ? "AND p.main_photo_id IS NOT NULL" : "",
    // A box around the member's city (positions are stored per city, never finer: docs/architecture/security.md §5).
    f.distance && origin ? "AND p.lat BETWEEN ?8 - ?10 AND ?8 + ?10 AND p.lon BETWEEN ?9 - ?11 AND ?9 + ?11" : "",
  ].join(" ");
  const where = `p.status = 'active' AND p.gender = ?2 AND p.country = ?3 ${region}
    AND p.date_of_birth BETWEEN ?4 AND ?5 AND ${VISIBLE_TO} ${filters}`;
  const cos = Math.max(0.1, Math.cos(((origin?.lat ?? 0) * Math.PI) / 180));
  const km = f.distance ?? 0;
  const args = [
    viewerId,
    f.gender,
    f.country,
    born0,
    born1,
    f.countryregion,
    Math.floor(today.getTime() / 1000) - ONLINE_WINDOW_S,
    origin?.lat ?? null,
    origin?.lon ?? null,
    km / 111,
    km / (111 * cos),
    cos * cos,
  ];
  return { from, where, args };
}

/** The search statements; exported so a test can EXPLAIN them. */
export function searchStatements(
  d1: D1Database,
  f: SearchFilters,
  viewerId: string,
  today = new Date(),
  origin: SearchOrigin = null,
) {
  const { from, where, args } = searchWhere(f, viewerId, today, origin);
  return {
    page: d1
      // oxlint-disable-next-line no-restricted-properties -- INDEXED BY: the builder cannot say it, and without it D1's planner (no statistics) may walk the shorter index
      .prepare(`SELECT ${CARD_COLUMNS} FROM ${from} WHERE ${where}
        ${ORDER} LIMIT ?13 OFFSET ?14`)
      .bind(...args, PAGE_SIZE, (f.page - 1) * PAGE_SIZE),
    count: d1
      // oxlint-disable-next-line no-restricted-properties -- INDEXED BY: the builder cannot say it, and without it D1's planner (no statistics) may walk the shorter index
      .prepare(`SELECT COUNT(*) AS n FROM (SELECT 1 FROM ${from} WHERE ${where} LIMIT ?13)`)
      .bind(...args, COUNT_CAP),
    // Similar: same gender and country, any region and age, not already in the results.
    similar: d1
      // oxlint-disable-next-line no-restricted-properties -- INDEXED BY: the builder cannot say it, and without it D1's planner (no statistics) may walk the shorter index
      .prepare(`SELECT ${CARD_COLUMNS} FROM profiles p INDEXED BY profiles_search JOIN users u ON u.id = p.user_id
        WHERE p.status = 'active' AND p.gender = ?2 AND p.country = ?3 AND ${VISIBLE_TO}
          AND NOT (p.date_of_birth BETWEEN ?4 AND ?5 AND (?6 = '' OR p.region = ?6))
        ${ORDER} LIMIT ?13`)
      .bind(...args, PAGE_SIZE),
  };
}

export interface SearchResult {
  results: ProfileCard[];
  numResults: number;
  capped: boolean;
  similar_results: ProfileCard[];
  pages: number;
  regions: Region[];
}

/**
 * One D1 round trip for the page, the count and the country's regions; a second only when few match, for similar results
 * (that query would walk a whole gender-and-country range when the filters match nearly everyone).
 */
export async function searchMembers(
  d1: D1Database,
  f: SearchFilters,
  viewerId: string | null,
  lng = "en",
  origin: SearchOrigin = null,
): Promise<SearchResult> {
  const today = new Date();
  const s = searchStatements(d1, f, viewerId ?? "", today, origin);
  const [page, count, regions] = await d1.batch<unknown>([s.page, s.count, regionsStatement(d1, f.country)]);
  const n = (count!.results as { n: number }[])[0]!.n;
  const results = (page!.results as CardRow[]).map((r) => toCard(r, today, lng));
  const similar = n < SIMILAR_BELOW ? (await s.similar.all<CardRow>()).results.map((r) => toCard(r, today, lng)) : [];
  return {
    results,
    numResults: n,
    capped: n >= COUNT_CAP,
    similar_results: similar,
    pages: Math.max(1, Math.ceil(n / PAGE_SIZE)),
    regions: regionsIn(regions!.results as RegionRow[], lng),
  };
}

/** What the search defaults need to know about the member searching: the session read it already. */
export function searcherOf(member: {
  country: string;
  profile: { gender: string; sexuality: string; dateOfBirth: string; lat: number | null; lon: number | null };
}) {
  const { gender, sexuality, dateOfBirth, lat, lon } = member.profile;
  return {
    gender,
    sexuality,
    country: member.country,
    dateOfBirth,
    age: ageOn(dateOfBirth, new Date()),
    origin: lat !== null && lon !== null ? { lat, lon } : null,
  };
}

/** A member's search with nothing chosen: the gender they look for, in their country, around their own age. */
export function defaultFilters(me: ReturnType<typeof searcherOf>): SearchFilters {
  return resolveFilters(
    new URLSearchParams(),
    { gender: wantedGender(me.gender, me.sexuality), country: me.country, countries: [me.country], age: me.age },
    me.origin,
  );
}

/**
 * Members picked for a member without asking (the swipe deck, the sign-up steps' members, the automatic
 * like): search's defaults and search's order (online, with a photo, nearest), so every place that picks
 * for a member picks the same people (decision 214). `extra` adds conditions with arguments from ?15 on.
 */
export function defaultDeckStatement(
  d1: D1Database,
  viewer: { id: string; me: ReturnType<typeof searcherOf> },
  limit: number,
  extra: { sql: string; args: unknown[] } = { sql: "", args: [] },
  today = new Date(),
) {
  const { from, where, args } = searchWhere(defaultFilters(viewer.me), viewer.id, today, viewer.me.origin);
  return (
    d1
      // oxlint-disable-next-line no-restricted-properties -- INDEXED BY: the builder cannot say it, and without it D1's planner (no statistics) may walk the shorter index
      .prepare(`SELECT ${CARD_COLUMNS} FROM ${from} WHERE ${where} ${extra.sql} ${ORDER} LIMIT ?13 OFFSET ?14`)
      .bind(...args, limit, 0, ...extra.args)
  );
}

/** docs/product/roles.md §6: visitors may search when the brand's logged_out_search (or, with a traffic source, its trafficsource variant) is not "none". */
export function visitorMaySearch(
  brand: { loggedOutSearch: string; loggedOutSearchTrafficsource: string },
  params: URLSearchParams,
) {
  const fromTraffic = params.has("network") || params.has("ref");
  return (fromTraffic ? brand.loggedOutSearchTrafficsource : brand.loggedOutSearch) !== "none";
}
