/**
 * The DSA queue's consumer marks a statement failed on the queue's last delivery (decision 225): it
 * knows that delivery by DSA_MAX_DELIVERIES, which must be every dsa-statements consumer's
 * max_retries + 1 in wrangler.toml, or statements would be dropped (fewer) or never failed (more).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DSA_MAX_DELIVERIES } from "../../app/models/dsa-database";

describe("DSA_MAX_DELIVERIES", () => {
  it("is max_retries + 1 of every dsa-statements consumer in wrangler.toml", () => {
    const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");
    const consumers = toml
      .split(/^\[\[/m)
      .filter((block) => /^(env\.\w+\.)?queues\.consumers\]\]/.test(block) && /queue = "dsa-statements/.test(block));
    expect(consumers.length).toBeGreaterThanOrEqual(3);
    for (const block of consumers) expect(Number(/max_retries = (\d+)/.exec(block)?.[1])).toBe(DSA_MAX_DELIVERIES - 1);
  });
});
