// The Worker bundle budget (docs/architecture/budgets.md §6, decision 171): `wrangler deploy --dry-run --outdir` and
// the gzip total wrangler reports, at most BUDGET_KIB. Prints the figure; exits 1 over budget.
// `node scripts/bundle-budget.mjs [--env production]` (after `npm run build`); run by `npm test`.
// It also fails when the entry bundles app code or a package beside the server build (decision 195), and
// when the code the Worker evaluates at start-up outgrows its budget (scripts/startup-code.mjs, decision 234).
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { checkStartupCode } from "./startup-code.mjs";

/** 1.2 MB as wrangler counts it (KiB), i.e. 1,228,800 bytes of gzip. */
export const BUDGET_KIB = 1200;

/**
 * What wrangler may bundle beside the server build: the entry itself. Anything else is a second copy of
 * what build/index.js already holds (decision 195), or one of nodejs_compat's polyfills for `process` and
 * `performance`, which ran at every start-up (node:events and node:process loaded with them) until the
 * compatibility flags chose workerd's own (wrangler.toml, decision 242).
 */
const BESIDE_THE_BUILD = [/^build\/index\.js$/, /^app\/entry\.worker\.ts$/];

/** The inputs of the dry run's Worker script that are neither the server build nor allowed beside it. */
export function duplicatedInputs(metafile) {
  const inputs = Object.values(metafile.outputs).flatMap((o) => Object.keys(o.inputs));
  return [...new Set(inputs)].filter((i) => !BESIDE_THE_BUILD.some((re) => re.test(i)));
}

/** Runs the dry run; returns wrangler's { rawKiB, gzipKiB } and what is bundled twice. */
export function measureBundle(env) {
  const outdir = `.wrangler/budget-${env ?? "dev"}`;
  const metafile = `${outdir}.meta.json`;
  rmSync(outdir, { recursive: true, force: true });
  const args = [
    "wrangler",
    "deploy",
    "--dry-run",
    "--outdir",
    outdir,
    "--metafile",
    metafile,
    ...(env ? ["--env", env] : []),
  ];
  const r = spawnSync("npx", args, { encoding: "utf8" });
  const out = `${r.stdout}${r.stderr}`;
  const m = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(out);
  if (r.status !== 0 || !m) throw new Error(`wrangler deploy --dry-run failed:\n${out}`);
  const twice = duplicatedInputs(JSON.parse(readFileSync(metafile, "utf8")));
  return { rawKiB: Number(m[1]), gzipKiB: Number(m[2]), outdir, twice };
}

export function checkBudget(env) {
  const { rawKiB, gzipKiB, twice } = measureBundle(env);
  const ok = gzipKiB <= BUDGET_KIB;
  console.log(
    `Worker bundle${env ? ` (${env})` : ""}: ${rawKiB.toFixed(0)} KiB raw, ${gzipKiB.toFixed(0)} KiB gzip — budget ${BUDGET_KIB} KiB gzip: ${ok ? "OK" : "OVER BUDGET"}`,
  );
  if (twice.length) {
    console.log(
      `Bundled beside the server build: app code or a package twice (import it through app/worker.server.ts,\n` +
        `decision 195), or a nodejs_compat polyfill run at every start-up (wrangler.toml's flags, decision 242):\n  ${twice.slice(0, 20).join("\n  ")}`,
    );
  }
  return ok && twice.length === 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf("--env");
  const bundled = checkBudget(i >= 0 ? process.argv[i + 1] : undefined);
  if (!(await checkStartupCode()) || !bundled) process.exit(1);
}
