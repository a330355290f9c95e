/**
 * What a request sends across the distance (docs/architecture/budgets.md §6): D1 round trips and how many of
 * them wait on each other, Durable Object calls likewise, R2 reads. Development only, switched on by
 * the TRACE_ROUND_TRIPS variable (tests/bench/round-trips.ts) or, for one request, the header
 * `X-Trace-Round-Trips: 1` (tests/worker/round-trips.test.ts); it can also hold every round trip back by
 * a fixed delay, as if the Worker ran far from the database. Never wraps anything when deployed.
 */
import { isDeployed, type Env } from "./env";

/** Counts and sequential depth of one request's round trips, per kind. */
export interface RoundTrips {
  d1: number;
  d1Depth: number;
  objects: number;
  objectsDepth: number;
  r2: number;
}

/**
 * Round trips of one kind. The depth is the longest chain of calls each of which started only after
 * the one before it had ended: parallel calls and one `batch` count once, awaited-one-after-another
 * calls each count.
 */
class Chain {
  count = 0;
  depth = 0;
  private ended = 0;
  constructor(
    private readonly delayMs: number,
    private readonly log: boolean,
  ) {}
  async run<T>(call: () => Promise<T>, what: string): Promise<T> {
    const level = this.ended + 1;
    if (this.log) console.log(`round trip ${level}: ${what.slice(0, 160)}`);
    this.count++;
    this.depth = Math.max(this.depth, level);
    try {
      if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
      return await call();
    } finally {
      this.ended = Math.max(this.ended, level);
    }
  }
}

const RUNS = new Set(["first", "all", "run", "raw"]);

function traceD1(db: D1Database, chain: Chain): D1Database {
  const originals = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const traced = new Proxy(statement, {
      get(target, key) {
        const value = Reflect.get(target, key, target) as unknown;
        if (typeof value !== "function") return value;
        if (key === "bind") return (...args: unknown[]) => wrap(target.bind(...args), sql);
        if (RUNS.has(String(key))) {
          return (...args: unknown[]) =>
            chain.run(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args), sql);
        }
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
    originals.set(traced, statement);
    return traced;
  };
  return new Proxy(db, {
    get(target, key) {
      // oxlint-disable-next-line no-restricted-properties -- guards: passes the app's own statements through, adds none
      if (key === "prepare") return (sql: string) => wrap(target.prepare(sql), sql);
      if (key === "batch") {
        return (statements: D1PreparedStatement[]) =>
          chain.run(() => target.batch(statements.map((s) => originals.get(s) ?? s)), `batch of ${statements.length}`);
      }
      if (key === "exec") return (sql: string) => chain.run(() => target.exec(sql), sql);
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A namespace whose stubs count every method call (RPC or fetch) as one round trip. */
function traceObjects<T extends object>(ns: T, chain: Chain): T {
  return new Proxy(ns, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== "function") return value;
      if (key !== "get") return (value as (...a: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => {
        const stub = (value as (...a: unknown[]) => object).apply(target, args);
        return new Proxy(stub, {
          get(s, k) {
            const member = Reflect.get(s, k) as unknown;
            // `then` stays as it is: awaiting a stub must not become a call.
            if (typeof member !== "function" || typeof k === "symbol" || k === "then") return member;
            // Reflect.apply: `member.apply` would itself be an RPC call named "apply".
            return (...a: unknown[]) =>
              chain.run(async () => Reflect.apply(member as (...x: unknown[]) => unknown, s, a), `object ${k}`);
          },
        });
      };
    },
  }) as T;
}

function traceR2(bucket: R2Bucket, counter: { r2: number }): R2Bucket {
  return new Proxy(bucket, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (key === "get" || key === "head" || key === "list") counter.r2++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/**
 * The request's env with its D1, Durable Object and R2 bindings counted (and delayed by
 * `TRACE_DELAY_MS` per round trip), and a function that reads the counts; `null` when tracing is off.
 */
export function traceRoundTrips(env: Env, request: Request): { env: Env; read: () => RoundTrips } | null {
  if (isDeployed(env)) return null;
  const asked = env.TRACE_ROUND_TRIPS ?? request.headers.get("X-Trace-Round-Trips");
  if (asked !== "1" && asked !== "log") return null;
  const delay = Number(env.TRACE_DELAY_MS ?? 0) || 0;
  // TRACE_ROUND_TRIPS=log also prints each round trip with its place in the chain.
  const log = asked === "log";
  const d1 = new Chain(delay, log);
  const objects = new Chain(delay, log);
  const r2 = { r2: 0 };
  const traced: Env = {
    ...env,
    DB: traceD1(env.DB, d1),
    CHAT_ROOM: traceObjects(env.CHAT_ROOM, objects),
    MEMBER_HUB: traceObjects(env.MEMBER_HUB, objects),
    PHOTOS: traceR2(env.PHOTOS, r2),
  };
  return {
    env: traced,
    read: () => ({ d1: d1.count, d1Depth: d1.depth, objects: objects.count, objectsDepth: objects.depth, r2: r2.r2 }),
  };
}

/** The counts as Server-Timing entries (read by tests/bench/round-trips.ts). */
export const roundTripsTiming = (t: RoundTrips) =>
  `d1;desc="${t.d1}/${t.d1Depth}", do;desc="${t.objects}/${t.objectsDepth}", r2;desc="${t.r2}"`;
