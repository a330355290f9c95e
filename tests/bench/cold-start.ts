/**
 * Cold start (docs/architecture/budgets.md §6, decision 171): a fresh workerd isolate's first response to `/`.
 *
 * The deployable bundle (`wrangler deploy --dry-run --outdir`) is started RUNS times in a new
 * Miniflare (a new workerd process, so nothing is warm) with the bindings of wrangler.toml and a seeded
 * local database. Each start is timed until ready (workerd's own start plus compiling and evaluating
 * the bundle's top level), then the first response to `/`. A stub Worker with the same bindings gives
 * workerd's own share, so `cold start = ready(app) − ready(stub) + first response(app)` is what our code
 * costs. Medians; machine-dependent, so a figure to compare, never a pass/fail test.
 *
 *   node --experimental-strip-types tests/bench/cold-start.ts [--root <checkout> ...]
 *
 * Each `--root` is a checkout measured with this checkout's tools, runs interleaved so that a busy
 * machine weighs on all alike (how decision 171's before/after figures were taken); each must have been
 * built (`npm run build`). Without it, this checkout.
 */
import { execSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { Miniflare, convertV4MiniflareOptions } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

const RUNS = Number(process.env.COLD_RUNS ?? 7);
const roots = process.argv.flatMap((a: string, i: number) => (process.argv[i - 1] === "--root" ? [resolve(a)] : []));
if (!roots.length) roots.push(resolve("."));
const outdirOf = (root: string) => resolve(root, ".wrangler/cold");
const stateOf = (root: string) => resolve(root, ".wrangler/cold-state");

function prepare(root: string) {
  const [outdir, state] = [outdirOf(root), stateOf(root)];
  const run = (cmd: string, env: NodeJS.ProcessEnv = {}) =>
    execSync(cmd, { cwd: root, stdio: "ignore", env: { ...process.env, ...env } });
  rmSync(outdir, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
  if (existsSync(resolve(root, "scripts/dev-vars.mjs"))) run("node scripts/dev-vars.mjs");
  run(`npx wrangler deploy --dry-run --outdir ${outdir}`);
  run(`npx wrangler d1 migrations apply DB --local --persist-to ${state}`);
  run("node --experimental-strip-types db/seed.ts", { WRANGLER_PERSIST: `${state}/v3` });
}

function median(xs: number[]): number {
  const m = [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  if (m === undefined) throw new Error("no runs to take a median of");
  return m;
}

/** The Worker's options as wrangler.toml gives them, read once per checkout. */
const optionsByRoot = new Map<string, unknown>();
function workerOptionsOf(root: string) {
  if (!optionsByRoot.has(root))
    optionsByRoot.set(root, unstable_getMiniflareWorkerOptions(resolve(root, "wrangler.toml")).workerOptions);
  return optionsByRoot.get(root)!;
}

/** One fresh workerd: ms until ready, ms of the first response to `/`, its status. */
async function start(
  root: string,
  script: { modules: unknown; modulesRoot: string } | { modules: true; script: string },
) {
  const workerOptions = workerOptionsOf(root);
  // Assets are served before the Worker in production, and the image Worker is not on this path.
  const {
    assets: _assets,
    serviceBindings: _services,
    modulesRules: _rules,
    ...bindings
  } = workerOptions as Record<string, unknown>;
  const options = convertV4MiniflareOptions({
    workers: [
      { ...bindings, name: "dating", ...script, serviceBindings: { IMAGES: "images-stub" } },
      { name: "images-stub", modules: true, script: "export default { fetch: () => new Response('') };" },
    ],
  } as never) as ConstructorParameters<typeof Miniflare>[0] & { resourcePersistencePath?: string };
  options.resourcePersistencePath = `${stateOf(root)}/v3`;
  const t0 = performance.now();
  const mf = new Miniflare(options);
  await mf.ready;
  const t1 = performance.now();
  const res = await mf.dispatchFetch("http://localhost/");
  await res.arrayBuffer();
  const t2 = performance.now();
  await mf.dispose();
  return { ready: t1 - t0, first: t2 - t1, status: res.status };
}

/** A Worker that only answers, exporting the same Durable Object classes the bindings name. */
function stubScript(root: string): string {
  const workerOptions = workerOptionsOf(root);
  const classes = Object.values(
    (workerOptions as { durableObjects?: Record<string, { className: string }> }).durableObjects ?? {},
  ).map((d) => d.className);
  return [
    'import { DurableObject } from "cloudflare:workers";',
    ...[...new Set(classes)].map((c) => `export class ${c} extends DurableObject {}`),
    "export default { fetch: () => new Response('ok') };",
  ].join("\n");
}

/** The dry run's modules: the entry first, then what it imports (the WebAssembly of older builds). */
function bundleOf(root: string) {
  const dir = outdirOf(root);
  const files = readdirSync(dir).filter((f) => /\.(js|wasm)$/.test(f));
  const modules = ["entry.worker.js", ...files.filter((f) => f !== "entry.worker.js")].map((f) => ({
    type: f.endsWith(".wasm") ? "CompiledWasm" : "ESModule",
    path: resolve(dir, f),
  }));
  return { modules, modulesRoot: dir };
}

type Run = Awaited<ReturnType<typeof start>>;
const runs = new Map<string, { app: Run[]; stub: Run[] }>(roots.map((r: string) => [r, { app: [], stub: [] }]));
for (const root of roots) prepare(root);
for (let i = 0; i < RUNS; i++)
  for (const root of roots) {
    runs.get(root)!.app.push(await start(root, bundleOf(root)));
    runs.get(root)!.stub.push(await start(root, { modules: true, script: stubScript(root) }));
  }
for (const [root, { app, stub }] of runs) {
  if (app.some((r: Run) => r.status !== 200)) throw new Error(`/ answered ${app.map((r) => r.status).join(", ")}`);
  const ready = median(app.map((r) => r.ready));
  const base = median(stub.map((r) => r.ready));
  const first = median(app.map((r) => r.first));
  console.log(
    `Cold start (${root}, median of ${RUNS}): ready ${ready.toFixed(0)} ms (stub Worker ${base.toFixed(0)} ms), ` +
      `first response to / ${first.toFixed(0)} ms → ${(ready - base + first).toFixed(0)} ms of our own`,
  );
  rmSync(stateOf(root), { recursive: true, force: true });
}
