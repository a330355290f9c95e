/**
 * `npm test` and the test:* scripts: runs the named steps in order, each once, stops at the first that
 * fails, and prints every step's wall time. `npm test` checks the browser once and builds the Worker
 * once; the worker, budget and end-to-end suites all use that build/. Arguments that are not step
 * names go to the last step (`npm run test:e2e -- tests/e2e/chat.spec.ts`).
 *
 *   node scripts/test.mjs                    every step (npm test)
 *   node scripts/test.mjs build worker       build, then the worker suites (npm run test:worker)
 */
import { spawnSync } from "node:child_process";
import path from "node:path";

const STEPS = {
  "check-browser": ["node", "scripts/check-browser.mjs"],
  unit: ["vitest", "run", "--config", "vitest.unit.config.ts"],
  build: ["npm", "run", "build"],
  worker: ["vitest", "run", "--config", "vitest.worker.config.ts"],
  production: ["vitest", "run", "--config", "vitest.production.config.ts"],
  budget: ["node", "scripts/bundle-budget.mjs", "--env", "production"],
  e2e: ["playwright", "test"],
};

const args = process.argv.slice(2);
const named = args.filter((a) => a in STEPS);
const steps = named.length ? named : Object.keys(STEPS);
const extra = args.filter((a) => !(a in STEPS));

const root = path.join(import.meta.dirname, "..");
const env = { ...process.env, PATH: `${path.join(root, "node_modules/.bin")}${path.delimiter}${process.env.PATH}` };
const times = [];
const report = () => {
  for (const [step, s, ok] of times) console.log(`${ok ? "  " : "✗ "}${step.padEnd(14)} ${s.toFixed(1).padStart(7)} s`);
  const total = times.reduce((sum, [, s]) => sum + s, 0);
  console.log(`  ${"total".padEnd(14)} ${total.toFixed(1).padStart(7)} s`);
};

for (const [i, step] of steps.entries()) {
  const [cmd, ...rest] = STEPS[step];
  const started = performance.now();
  const run = spawnSync(cmd, [...rest, ...(i === steps.length - 1 ? extra : [])], { cwd: root, env, stdio: "inherit" });
  const ok = run.status === 0;
  times.push([step, (performance.now() - started) / 1000, ok]);
  if (!ok) {
    console.log(`\n${step} failed:`);
    report();
    process.exit(run.status ?? 1);
  }
}
if (steps.length > 1) {
  console.log("\nWall time per step:");
  report();
}
