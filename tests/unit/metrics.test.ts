import { describe, expect, it, vi } from "vitest";
import { countEvent } from "~/lib/metrics.server";

describe("business event counts (Workers Analytics Engine)", () => {
  it("writes one data point with the event, brand and amount", () => {
    const writeDataPoint = vi.fn();
    countEvent({ METRICS: { writeDataPoint } as never }, "payment", { brandId: 3, cents: 1999 });
    expect(writeDataPoint).toHaveBeenCalledWith({ indexes: ["payment"], blobs: ["payment", "3"], doubles: [1999] });
  });
  it("counts nothing without the binding and never throws", () => {
    expect(() => countEvent({}, "signup")).not.toThrow();
    expect(() =>
      countEvent(
        {
          METRICS: {
            writeDataPoint: () => {
              throw new Error("down");
            },
          } as never,
        },
        "signup",
      ),
    ).not.toThrow();
  });
});
