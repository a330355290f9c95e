// The Worker bundle budget (docs/architecture.md §6, decision 171): `wrangler deploy --dry-run --outdir` and
// the gzip total wrangler reports, at most BUDGET_KIB. Prints the figure; exits 1 over budget.
// `node scripts/bundle-budget.mjs [--env production]` (after `npm run build`); run by `npm test`.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** 1.2 MB as wrangler counts it (KiB), i.e. 1,228,800 bytes of gzip. */
export const BUDGET_KIB = 1200;

/** Runs the dry run; returns wrangler's { rawKiB, gzipKiB }. */
export function measureBundle(env) {
  const outdir = `.wrangler/budget-${env ?? "dev"}`;
  rmSync(outdir, { recursive: true, force: true });
  const args = ["wrangler", "deploy", "--dry-run", "--outdir", outdir, ...(env ? ["--env", env] : [])];
  const r = spawnSync("npx", args, { encoding: "utf8" });
  const out = `${r.stdout}${r.stderr}`;
  const m = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(out);
  if (r.status !== 0 || !m) throw new Error(`wrangler deploy --dry-run failed:\n${out}`);
  return { rawKiB: Number(m[1]), gzipKiB: Number(m[2]), outdir };
}

export function checkBudget(env) {
  const { rawKiB, gzipKiB } = measureBundle(env);
  const ok = gzipKiB <= BUDGET_KIB;
  console.log(
    `Worker bundle${env ? ` (${env})` : ""}: ${rawKiB.toFixed(0)} KiB raw, ${gzipKiB.toFixed(0)} KiB gzip — budget ${BUDGET_KIB} KiB gzip: ${ok ? "OK" : "OVER BUDGET"}`,
  );
  return ok;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf("--env");
  if (!checkBudget(i >= 0 ? process.argv[i + 1] : undefined)) process.exit(1);
}
