/**
 * What the benches share: a fresh local state (migrations and the demo brands), the built Worker served by
 * `wrangler dev` on a loopback port, an operator or member login, and wall times of a few pages.
 * Each bench picks its own port and state directory; BENCH_PORT overrides the port of every bench.
 */
import { execSync, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { drizzle } from "drizzle-orm/d1";
import { getPlatformProxy } from "wrangler";
import * as schema from "../../db/schema.ts";
import { brands, companies, packagePrices, packages } from "../../db/seed/brands.ts";

/** The port a bench serves on: BENCH_PORT when set, else the bench's own default. */
export const benchPort = (fallback: number) => Number(process.env.BENCH_PORT ?? fallback);

/** Empties `state`, writes .dev.vars and applies the migrations to its local D1. */
export function freshState(state: string) {
  rmSync(state, { recursive: true, force: true });
  execSync("node scripts/dev-vars.mjs", { stdio: "ignore" });
  execSync(`npx wrangler d1 migrations apply DB --local --persist-to ${state}`, { stdio: "ignore" });
}

/**
 * A fresh `state` with the demo companies, brands and packages, opened through getPlatformProxy for the
 * bench's own rows; `dispose()` it before serving.
 */
export async function freshBrandState(state: string) {
  freshState(state);
  const proxy = await getPlatformProxy<{ DB: D1Database }>({ persist: { path: `${state}/v3` } });
  const { DB } = proxy.env;
  const db = drizzle(DB, { schema });
  await db.insert(schema.companies).values(companies);
  for (const brand of brands) await db.insert(schema.brands).values(brand);
  await db.insert(schema.packages).values(packages);
  await db.insert(schema.packagePrices).values(packagePrices);
  return { DB, db, dispose: () => proxy.dispose() };
}

export type BenchServer = { base: string; stop(): void };

/**
 * The built Worker under `wrangler dev` on 127.0.0.1:`port` (inspector on port + 1000) over the local state
 * `state`; resolves once /healthz answers. `configs`: extra wrangler configs (the images Worker);
 * `vars`: --var overrides (ENVIRONMENT:test turns off the landing strip's cache and the like).
 */
export async function startBenchServer(o: {
  port: number;
  state: string;
  configs?: string[];
  vars?: Record<string, string>;
}): Promise<BenchServer> {
  // A server left on this port (a bench killed half-way) would answer instead, over a deleted state.
  if (
    await fetch(`http://127.0.0.1:${o.port}/healthz`).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`port ${o.port} is in use: stop what serves it, or set BENCH_PORT`);
  const configs = o.configs?.length ? ["wrangler.toml", ...o.configs].flatMap((c) => ["-c", c]) : [];
  const vars = Object.entries(o.vars ?? {}).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const child = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      ...configs,
      "--port",
      String(o.port),
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      String(o.port + 1000),
      "--persist-to",
      o.state,
      ...vars,
    ],
    // Its own process group, so stop() ends wrangler and the workerd it started.
    { stdio: "ignore", detached: true },
  );
  const server = {
    base: `http://127.0.0.1:${o.port}`,
    stop() {
      try {
        // SIGKILL: wrangler outlived SIGTERM when the bench exited right after, and kept serving.
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
    },
  };
  for (let i = 0; ; i++) {
    if (i > 360) {
      server.stop();
      throw new Error("wrangler dev did not start");
    }
    const up = await fetch(`${server.base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return server;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Logs in through a form (`path`, e.g. /login or /admin/login); answers the session cookie, or throws. */
export async function loginCookie(base: string, path: string, fields: Record<string, string>, cookieName: string) {
  const res = await fetch(base + path, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams(fields),
  });
  const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0]!;
  if (!cookie.startsWith(`${cookieName}=`)) throw new Error(`login at ${path} failed: ${res.status}`);
  return cookie;
}

/**
 * Prints the wall time per request on loopback (p50, p95) of `paths`, taken in turn, after one warm-up request
 * each. Every answer must be a 200 (or a redirect, with `redirects`).
 */
export async function measureWall(
  base: string,
  cookie: string,
  label: string,
  paths: string[],
  o: { runs?: number; redirects?: boolean } = {},
) {
  const runs = o.runs ?? 40;
  const init: RequestInit = { headers: { Cookie: cookie }, redirect: o.redirects ? "manual" : "follow" };
  for (const p of paths) await (await fetch(base + p, init)).text(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const p = paths[i % paths.length]!;
    const start = performance.now();
    const res = await fetch(base + p, init);
    await res.text();
    times.push(performance.now() - start);
    if (res.status !== 200 && !(o.redirects && res.status === 302)) throw new Error(`${p}: ${res.status}`);
  }
  times.sort((a, b) => a - b);
  const q = (f: number) => times[Math.min(times.length - 1, Math.floor(f * times.length))]!.toFixed(1);
  console.log(`${label.padEnd(52)} p50 ${q(0.5).padStart(7)} ms   p95 ${q(0.95).padStart(7)} ms   (${runs} requests)`);
}
