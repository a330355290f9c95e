/**
 * Places: regions of a country, and the offline reverse geocoder (nearest city of the GeoNames
 * cities table by bounding box, DESIGN section 1). Nothing more exact than a city leaves the server.
 */
export function regionsStatement(d1: D1Database, country: string) {
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
  return rows.map((r) => ({ code: r.code, name: regionName(r.names, r.name, lng) })).sort((a, b) => order.compare(a.name, b.name));
}

export async function regionsOf(d1: D1Database, country: string, lng = "en"): Promise<Region[]> {
  return regionsIn((await regionsStatement(d1, country).all<RegionRow>()).results, lng);
}

export interface Place { country: string; region: string; region_name: string; city: string }

/** Boxes tried in turn (degrees of latitude): a city is usually within the first. */
const BOXES = [0.25, 1, 3];

/**
 * The nearest city to a position. Each box is one indexed range query on cities_lat_lon; distance is
 * compared on an equirectangular projection, exact enough to pick the nearest town.
 */
export async function nearestCity(d1: D1Database, lat: number, lon: number, lng = "en"): Promise<Place | null> {
  const row = await nearestCityRow(d1, lat, lon);
  return row && { country: row.country, region: row.region_code, region_name: regionName(row.region_names, row.region_name, lng), city: row.name };
}

type CityRow = { name: string; country: string; region_code: string; region_name: string; region_names: string | null; lat: number; lon: number };

async function nearestCityRow(d1: D1Database, lat: number, lon: number): Promise<CityRow | null> {
  const k = Math.cos((lat * Math.PI) / 180) ** 2; // longitude degrees shrink towards the poles
  for (const box of BOXES) {
    const lonBox = box / Math.max(0.1, Math.sqrt(k));
    const row = await d1
      .prepare(
        `SELECT c.name, c.country, c.region_code, c.lat, c.lon,
                COALESCE((SELECT r.name FROM regions r WHERE r.country = c.country AND r.code = c.region_code), c.region_code) AS region_name,
                (SELECT r.names FROM regions r WHERE r.country = c.country AND r.code = c.region_code) AS region_names
         FROM cities c
         WHERE c.lat BETWEEN ?1 - ?3 AND ?1 + ?3 AND c.lon BETWEEN ?2 - ?4 AND ?2 + ?4
         ORDER BY (c.lat - ?1) * (c.lat - ?1) + (c.lon - ?2) * (c.lon - ?2) * ?5 LIMIT 1`,
      )
      .bind(lat, lon, box, lonBox, k)
      .first<CityRow>();
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
  const { results } = await d1.prepare("SELECT country FROM regions WHERE code = ?1").bind(region).all<{ country: string }>();
  if (results.length === 0) return null;
  return results.some((r) => r.country === country) ? region : "";
}

/** Degrees of the grid a position far from every known town is rounded to (about 11 km). */
export const POSITION_GRID = 0.1;

/**
 * Where a member is stored (DESIGN section 5, decision 084): the coordinates of their city, never
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
  return d1
    .prepare("SELECT lat, lon FROM cities WHERE country = ?1 AND name = ?2 COLLATE NOCASE ORDER BY population DESC LIMIT 1")
    .bind(country, city)
    .first<{ lat: number; lon: number }>();
}

/** The regions of each of the brand's countries (/api/regions.php), named in the page's language. */
export async function regionsByCountry(d1: D1Database, countries: string[], lng = "en") {
  const { results } = await d1
    .prepare(`SELECT country, code, name, names FROM regions WHERE country IN (SELECT value FROM json_each(?1))`)
    .bind(JSON.stringify(countries))
    .all<RegionRow & { country: string }>();
  const rows: Record<string, RegionRow[]> = {};
  for (const r of results) (rows[r.country] ??= []).push(r);
  return Object.fromEntries(Object.entries(rows).map(([country, list]) => [country, regionsIn(list, lng)]));
}
