import type { Env } from "./env";

/** Business events counted in Workers Analytics Engine (decision 170): the back office reads the counts. */
export type BusinessEvent = "signup" | "activation" | "payment" | "refund" | "message" | "report";

/**
 * One data point: blob1 the event, blob2 the brand, double1 an amount (cents, 0 when none); indexed by
 * the event. Never throws and never waits: counting must not break or slow what it counts. No
 * binding (tests, a plain local run) counts nothing.
 */
export function countEvent(
  env: Pick<Env, "METRICS">,
  event: BusinessEvent,
  o: { brandId?: number | null; cents?: number } = {},
): void {
  try {
    env.METRICS?.writeDataPoint({ indexes: [event], blobs: [event, String(o.brandId ?? "")], doubles: [o.cents ?? 0] });
  } catch {
    // Analytics is best effort.
  }
}
