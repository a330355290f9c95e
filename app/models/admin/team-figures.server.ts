/**
 * The team's reply figures (decision 210), from `team_events` (one row per reply that answered a waiting
 * member, one per conversation whose unanswered paid messages went back): the share of paid messages
 * answered within the brand's window, the median and 90th-percentile first-reply time per brand and per
 * team member, and the credits returned. A chat team member limited to some brands sees those only.
 */
import { brandScope, type Operator } from "./operators.server";

type Times = { replies: number; median: number | null; p90: number | null };

export type BrandFigures = Times & {
  brandId: number;
  name: string;
  /** Paid messages answered, or given back unanswered, in the period. */
  paid: number;
  paidInTime: number;
  /** paidInTime / paid, null without paid messages. */
  share: number | null;
  creditsReturned: number;
};

/**
 * Median and 90th percentile (nearest rank) of the reply times per `key` (brand_id or operator_id),
 * in SQL: the period's replies are never all loaded into the Worker.
 */
const quantilesSql = (key: "brand_id" | "operator_id", scope: string) => `
  WITH w AS (
    SELECT ${key} AS k, waited,
      ROW_NUMBER() OVER (PARTITION BY ${key} ORDER BY waited) AS rn,
      COUNT(*) OVER (PARTITION BY ${key}) AS n
    FROM team_events
    WHERE kind = 'reply' AND waited IS NOT NULL AND at >= ?1 AND at < ?2 AND ${key} IS NOT NULL ${scope})
  SELECT k, MAX(n) AS replies,
    MAX(CASE WHEN rn = MAX(1, CAST((n * 5 + 9) / 10 AS INTEGER)) THEN waited END) AS median,
    MAX(CASE WHEN rn = MAX(1, CAST((n * 9 + 9) / 10 AS INTEGER)) THEN waited END) AS p90
  FROM w GROUP BY k`;

/** The figures for events in [from, to). */
export async function teamFigures(d1: D1Database, operator: Operator, from: number, to: number) {
  const scope = brandScope(operator);
  // Brand ids are integers from the operator's own row: safe to inline.
  const inScope = scope ? `AND brand_id IN (${scope.map(Number).join(",")})` : "";
  const [brands, sums, brandTimes, operatorTimes] = await d1.batch([
    // oxlint-disable-next-line no-restricted-properties -- one batch with the window-function queries below
    d1.prepare(
      `SELECT id, name FROM brands WHERE 1 = 1 ${scope ? `AND id IN (${scope.map(Number).join(",")})` : ""} ORDER BY id`,
    ),
    d1
      // oxlint-disable-next-line no-restricted-properties -- one batch with the window-function queries below
      .prepare(
        `SELECT brand_id,
           SUM(CASE kind WHEN 'reply' THEN paid - paid_returned ELSE paid END) AS paid,
           SUM(paid_in_time) AS paid_in_time,
           SUM(CASE kind WHEN 'return' THEN credits ELSE 0 END) AS credits_returned
         FROM team_events WHERE at >= ?1 AND at < ?2 ${inScope} GROUP BY brand_id`,
      )
      .bind(from, to),
    // oxlint-disable-next-line no-restricted-properties -- window functions (percentiles): not in drizzle's builder
    d1.prepare(quantilesSql("brand_id", inScope)).bind(from, to),
    d1
      // oxlint-disable-next-line no-restricted-properties -- window functions (percentiles): not in drizzle's builder
      .prepare(
        `SELECT q.k, q.replies, q.median, q.p90, o.name FROM (${quantilesSql("operator_id", inScope)}) q
           LEFT JOIN operators o ON o.id = q.k ORDER BY o.name`,
      )
      .bind(from, to),
  ]);
  type Sum = { brand_id: number; paid: number; paid_in_time: number; credits_returned: number };
  type Q = { k: string | number; replies: number; median: number | null; p90: number | null; name?: string | null };
  const sumOf = new Map((sums!.results as Sum[]).map((r) => [r.brand_id, r]));
  const timesOf = new Map((brandTimes!.results as Q[]).map((r) => [Number(r.k), r]));
  const byBrand: BrandFigures[] = (brands!.results as { id: number; name: string }[]).map((b) => {
    const s = sumOf.get(b.id);
    const t = timesOf.get(b.id);
    const paid = s?.paid ?? 0;
    return {
      brandId: b.id,
      name: b.name,
      replies: t?.replies ?? 0,
      median: t?.median ?? null,
      p90: t?.p90 ?? null,
      paid,
      paidInTime: s?.paid_in_time ?? 0,
      share: paid > 0 ? (s?.paid_in_time ?? 0) / paid : null,
      creditsReturned: s?.credits_returned ?? 0,
    };
  });
  const byOperator = (operatorTimes!.results as Q[]).map((r) => ({
    operatorId: String(r.k),
    name: r.name ?? String(r.k),
    replies: r.replies,
    median: r.median,
    p90: r.p90,
  }));
  return { byBrand, byOperator };
}
