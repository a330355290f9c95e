/** Geography: regions of countries (and, with the members issue, the offline reverse geocoder). */
export async function regionsByCountry(d1: D1Database, countries: string[]) {
  const { results } = await d1
    .prepare(`SELECT country, code, name FROM regions WHERE country IN (SELECT value FROM json_each(?1)) ORDER BY country, name`)
    .bind(JSON.stringify(countries))
    .all<{ country: string; code: string; name: string }>();
  const out: Record<string, { code: string; name: string }[]> = {};
  for (const r of results) (out[r.country] ??= []).push({ code: r.code, name: r.name });
  return out;
}
