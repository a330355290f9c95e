/**
 * Places: regions of a country, and the offline reverse geocoder (nearest city of the GeoNames
 * cities table by bounding box, docs/architecture/stack.md §1). Nothing more exact than a city leaves the server.
 */
import { and, between, desc, eq, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
export function regionsStatement(d1: D1Database, country: string) {
  // oxlint-disable-next-line no-restricted-properties -- goes into search's raw batch beside its INDEXED BY card reads
  return d1.prepare("SELECT code, name, names FROM regions WHERE country = ?1").bind(country);
}

export type Region = { code: string; name: string };
export type RegionRow = Region & { names: string | null };

/**
 * A region's name in the page's language where the data has it (regions.names, decision 133), else
 * its GeoNames name. `names` is the JSON column as selected; a broken value falls back too.
 */
export function regionName(names: string | null | undefined, name: string, lng: string): string {
  if (!names || names === "{}") return name;
  try {
    const byLanguage = JSON.parse(names) as Record<string, unknown>;
    return typeof byLanguage[lng] === "string" && byLanguage[lng] ? (byLanguage[lng] as string) : name;
  } catch {
    return name;
  }
}

/** A country's regions for a picker: named in the page's language, in that language's order. */
export function regionsIn(rows: readonly RegionRow[], lng: string): Region[] {
  const order = new Intl.Collator(lng);
  return rows
    .map((r) => ({ code: r.code, name: regionName(r.names, r.name, lng) }))
    .sort((a, b) => order.compare(a.name, b.name));
}

export async function regionsOf(d1: D1Database, country: string, lng = "en"): Promise<Region[]> {
  return regionsIn((await regionsStatement(d1, country).all<RegionRow>()).results, lng);
}

export interface Place {
  country: string;
  region: string;
  region_name: string;
  city: string;
}

/** Boxes tried in turn (degrees of latitude): a city is usually within the first. */
const BOXES = [0.25, 1, 3];

/**
 * The nearest city to a position. Each box is one indexed range query on cities_lat_lon; distance is
 * compared on an equirectangular projection, exact enough to pick the nearest town.
 */
export async function nearestCity(d1: D1Database, lat: number, lon: number, lng = "en"): Promise<Place | null> {
  const row = await nearestCityRow(d1, lat, lon);
  return (
    row && {
      country: row.country,
      region: row.region_code,
      region_name: regionName(row.region_names, row.region_name, lng),
      city: row.name,
    }
  );
}

async function nearestCityRow(d1: D1Database, lat: number, lon: number) {
  const { cities: c, regions: r } = schema;
  const k = Math.cos((lat * Math.PI) / 180) ** 2; // longitude degrees shrink towards the poles
  const ofCity = and(eq(r.country, c.country), eq(r.code, c.regionCode));
  for (const box of BOXES) {
    const lonBox = box / Math.max(0.1, Math.sqrt(k));
    const [row] = await getDb(d1)
      .select({
        name: c.name,
        country: c.country,
        region_code: c.regionCode,
        lat: c.lat,
        lon: c.lon,
        region_name: sql<string>`COALESCE((SELECT ${r.name} FROM ${r} WHERE ${ofCity}), ${c.regionCode})`,
        region_names: sql<string | null>`(SELECT ${r.names} FROM ${r} WHERE ${ofCity})`,
      })
      .from(c)
      .where(and(between(c.lat, lat - box, lat + box), between(c.lon, lon - lonBox, lon + lonBox)))
      .orderBy(sql`(${c.lat} - ${lat}) * (${c.lat} - ${lat}) + (${c.lon} - ${lon}) * (${c.lon} - ${lon}) * ${k}`)
      .limit(1);
    if (row) return row;
  }
  return null;
}

/**
 * The region to store with `country`: the code when it is one of that country's regions; "" when
 * there is none or it is another country's (a form sent without JavaScript after the country
 * changed: the page then lists the new country's regions); null for a code no country has (refused).
 */
export async function regionForCountry(d1: D1Database, country: string, region: string): Promise<string | null> {
  if (!region) return "";
  const { regions } = schema;
  const results = await getDb(d1).select({ country: regions.country }).from(regions).where(eq(regions.code, region));
  if (results.length === 0) return null;
  return results.some((r) => r.country === country) ? region : "";
}

/** Degrees of the grid a position far from every known town is rounded to (about 11 km). */
export const POSITION_GRID = 0.1;

/**
 * Where a member is stored (docs/architecture/security.md §5, decision 084): the coordinates of their city, never
 * finer. A typed or chosen city gives its own; a browser position gives its nearest city's, or, far
 * from every town, a point of a coarse grid. Distances and searches only ever see this.
 */
export async function cityLevelPosition(
  d1: D1Database,
  p: { country: string; city: string; lat: number | ""; lon: number | "" },
): Promise<{ lat: number; lon: number } | null> {
  if (p.city) {
    const named = await cityPosition(d1, p.country, p.city);
    if (named) return named;
  }
  if (p.lat === "" || p.lon === "") return null;
  const near = await nearestCityRow(d1, p.lat, p.lon);
  if (near) return { lat: near.lat, lon: near.lon };
  const snap = (v: number) => Math.round(v / POSITION_GRID) * POSITION_GRID;
  return { lat: Number(snap(p.lat).toFixed(1)), lon: Number(snap(p.lon).toFixed(1)) };
}

/** A city's position (for distances) when a member picks it by name. */
export async function cityPosition(d1: D1Database, country: string, city: string) {
  const { cities } = schema;
  const [row] = await getDb(d1)
    .select({ lat: cities.lat, lon: cities.lon })
    .from(cities)
    .where(and(eq(cities.country, country), sql`${cities.name} = ${city} COLLATE NOCASE`))
    .orderBy(desc(cities.population))
    .limit(1);
  return row ?? null;
}

/** The regions of each of the brand's countries (/api/regions.php), named in the page's language. */
export async function regionsByCountry(d1: D1Database, countries: string[], lng = "en") {
  const { regions } = schema;
  // One bound JSON list, whatever the number of countries (D1 binds at most 100 values).
  const results = await getDb(d1)
    .select({ country: regions.country, code: regions.code, name: regions.name, names: regions.names })
    .from(regions)
    .where(sql`${regions.country} IN (SELECT value FROM json_each(${JSON.stringify(countries)}))`);
  const rows: Record<string, RegionRow[]> = {};
  for (const r of results) (rows[r.country] ??= []).push(r);
  return Object.fromEntries(Object.entries(rows).map(([country, list]) => [country, regionsIn(list, lng)]));
}
