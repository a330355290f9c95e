/**
 * Seeding is all or nothing (decision 086; decision 086): the completion mark is written last,
 * a run without it starts over from a clean state, and transient errors of the local proxy (a busy
 * machine drops its socket) are retried by starting over.
 */

/** The counters row that marks a finished seed (expires never: the purge only drops expired rows). */
export const SEED_MARK = { key: "seed:complete", expiresAt: 2_147_483_647 };

/** `npm start` (--if-empty) skips only a seed that finished; a half seed is done again. */
export function shouldSeed(o: { ifEmpty: boolean; marked: boolean }): boolean {
  return !o.ifEmpty || !o.marked;
}

const TRANSIENT =
  /UND_ERR_SOCKET|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|socket hang up|fetch failed|other side closed|Network connection lost/i;

/** An error worth a fresh attempt (the local D1/R2 proxy lost its connection), not a bug in the seed. */
export function isTransient(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (TRANSIENT.test(`${String(code ?? "")} ${String(message ?? "")}`)) return true;
  }
  return false;
}

/** Runs `attempt` until it succeeds, retrying transient errors up to `tries` times in all. */
export async function withRetries<T>(
  tries: number,
  attempt: (n: number) => Promise<T>,
  onRetry?: (e: unknown, n: number) => void,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (e) {
      if (n >= tries || !isTransient(e)) throw e;
      onRetry?.(e, n);
    }
  }
}
