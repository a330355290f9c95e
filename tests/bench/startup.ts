/**
 * The Worker's start-up CPU as Cloudflare measures it (docs/architecture/budgets.md §6): `wrangler check startup`
 * profiles the production bundle's top-level evaluation. The budgeted figure is the profile's active time,
 * as wrangler prints it ("Active": the sampled time that is not idle, garbage collection included); the
 * span from the first to the last busy sample is printed beside it. Median of RUNS, each `--root` (a built
 * checkout) interleaved with the others so a busy machine weighs on all alike. Exits 1 when the first
 * root's median is over the 50 ms budget: a timing, so it lives in `npm run bench`, never in the pass/fail
 * tests; `npm run test:budget` holds a deterministic stand-in, the code evaluated at start-up (decision 234).
 *
 *   npm run build && node --experimental-strip-types tests/bench/startup.ts [--root <checkout> ...]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";

const RUNS = Number(process.env.STARTUP_RUNS ?? 5);
const BUDGET_MS = 50;
const roots = process.argv.flatMap((a: string, i: number) => (process.argv[i - 1] === "--root" ? [resolve(a)] : []));
if (!roots.length) roots.push(resolve("."));

type Profile = {
  nodes: { id: number; callFrame: { functionName: string } }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
};

/** wrangler's "Active": milliseconds of the samples that are not idle (each sample weighs its time delta). */
export function activeMs(profile: Profile): number {
  const names = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  let active = 0;
  profile.timeDeltas.forEach((delta, i) => {
    if (names.get(profile.samples[i]!) !== "(idle)") active += delta;
  });
  return active / 1000;
}

/** Milliseconds between the first and the last sample that is neither idle nor the profiler's root. */
export function busySpanMs(profile: Profile): number {
  const names = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
  let t = profile.startTime;
  const busy: number[] = [];
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const name = names.get(id);
    if (name !== "(idle)" && name !== "(root)") busy.push(t);
  });
  return busy.length < 2 ? 0 : (busy.at(-1)! - busy[0]!) / 1000;
}

const work = mkdtempSync(join(tmpdir(), "startup-"));
const bundleOf = (root: string) => join(work, `${roots.indexOf(root)}.bundle`);
for (const root of roots) {
  execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--env", "production", "--outfile", bundleOf(root)], {
    cwd: root,
    stdio: "ignore",
  });
}

const spans = new Map<string, number[]>(roots.map((r: string) => [r, []]));
const actives = new Map<string, number[]>(roots.map((r: string) => [r, []]));
for (let run = 0; run < RUNS; run++) {
  for (const root of roots) {
    const out = join(work, `${roots.indexOf(root)}-${run}.cpuprofile`);
    execFileSync(
      "npx",
      ["wrangler", "check", "startup", "--env", "production", "--workerBundle", bundleOf(root), "--outfile", out],
      { cwd: root, stdio: "ignore" },
    );
    const profile = JSON.parse(readFileSync(out, "utf8")) as Profile;
    actives.get(root)!.push(activeMs(profile));
    spans.get(root)!.push(busySpanMs(profile));
  }
}
rmSync(work, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const list = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(", ");
for (const root of roots) {
  const [xs, span] = [actives.get(root)!, spans.get(root)!];
  console.log(
    `${root}: start-up active ${median(xs).toFixed(1)} ms median of ${list(xs)}; busy span ${median(span).toFixed(1)} ms median of ${list(span)}`,
  );
}
console.log(
  `load average: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
if (median(actives.get(roots[0]!)!) > BUDGET_MS) {
  console.error(`start-up over its ${BUDGET_MS} ms budget`);
  process.exitCode = 1;
}
