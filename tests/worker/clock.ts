import { vi } from "vitest";

/**
 * Runs a test with the clock stopped where it stands (Date only: timers and I/O run on). Rules that
 * count per UTC hour or day (throttles, daily quotas) then cannot see the test's requests straddle a
 * window boundary, however slow the machine or late the hour. The Worker runs in the tests' isolate,
 * so it reads the same stopped clock.
 */
export function clockStopped(test: () => Promise<void>): () => Promise<void> {
  return async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      await test();
    } finally {
      vi.useRealTimers();
    }
  };
}
