import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { searchStatements, type SearchFilters } from "../../app/models/search.server";

/** A stand-in D1 that records the SQL and arguments instead of running them. */
const recorder = {
  prepare: (sql: string) => ({ bind: (...args: unknown[]) => ({ sql, args }) }),
} as unknown as D1Database;

async function plan(stmt: unknown) {
  const { sql, args } = stmt as { sql: string; args: unknown[] };
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...args)
    .all<{ detail: string }>();
  return results.map((r) => r.detail);
}

const base: SearchFilters = {
  gender: "female",
  country: "NL",
  countryregion: "",
  min_age: 18,
  max_age: 99,
  page: 3,
  online: false,
  photo: false,
  distance: null,
};
const origin = { lat: 52.09, lon: 5.12 };

describe("search query plans", () => {
  for (const [name, f, index] of [
    ["country", base, "profiles_search"],
    ["region", { ...base, countryregion: "NH" }, "profiles_search_region"],
    ["filtered (online, photo, distance)", { ...base, online: true, photo: true, distance: 25 }, "profiles_search"],
  ] as const) {
    // Online first, photo first, nearest (decision 180) cannot come from the index: the rows the index bounds
    // (status, gender, country, age range) are sorted, never a scan of the tables.
    it(`walks ${index} for a ${name} search, with no full scan of profiles or users; only the order sorts`, async () => {
      const s = searchStatements(recorder, f, "viewer", new Date(), origin);
      for (const [stmt, expected] of [
        [s.page, index],
        [s.count, index],
        [s.similar, "profiles_search"],
      ] as const) {
        const details = await plan(stmt);
        expect(details.find((d) => d.startsWith("SEARCH p "))).toContain(`SEARCH p USING INDEX ${expected} (`);
        for (const d of details) {
          expect(d).not.toMatch(/^SCAN (p|u|profiles|users)\b(?!.*USING)/);
          expect(d).not.toMatch(/^SCAN (p|u)$/);
        }
        expect(details.filter((d) => d.includes("TEMP B-TREE") && !d.includes("ORDER BY"))).toEqual([]);
      }
    });
  }
});
