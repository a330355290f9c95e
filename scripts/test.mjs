/**
 * `npm test` and the test:* scripts: runs the named steps in order, each once, stops at the first that
 * fails, and prints every step's wall time. `npm test` checks the browser once and builds the Worker
 * once; the worker, budget and end-to-end suites all use that build/. Arguments that are not step
 * names go to the last step (`npm run test:e2e -- tests/e2e/chat.spec.ts`).
 *
 *   node scripts/test.mjs                    every step (npm test)
 *   node scripts/test.mjs build worker       build, then the worker suites (npm run test:worker)
 *
 * When other steps come between the build and the end-to-end step, its server (tests/e2e/server.sh:
 * migrations, seed, wrangler dev; minutes on a busy machine) starts right after the build, beside the
 * worker suites, and Playwright uses it (decision 220).
 */
import { spawn, spawnSync } from "node:child_process";
import { openSync, readFileSync } from "node:fs";
import os from "node:os";
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

const port = Number(process.env.E2E_PORT ?? 8788);
const serverUrl = `http://localhost:${port}/`;
const serverLog = path.join(os.tmpdir(), `e2e-server-${port}.log`);
let server = null;
const answers = () =>
  fetch(serverUrl, { signal: AbortSignal.timeout(5_000) }).then(
    () => true,
    () => false,
  );
async function startServer() {
  if (await answers()) return; // someone else's server on the port: Playwright decides (reuseExistingServer)
  // .dev.vars before the worker suites start, not while they run (server.sh writes it first too).
  spawnSync("node", ["scripts/dev-vars.mjs"], { cwd: root, env, stdio: "ignore" });
  const log = openSync(serverLog, "w");
  server = spawn("bash", ["tests/e2e/server.sh", String(port)], {
    cwd: root,
    env,
    stdio: ["ignore", log, log],
    detached: true,
  });
  server.on("exit", () => (server = null));
}
const stopServer = () => {
  if (!server) return;
  try {
    process.kill(-server.pid, "SIGTERM"); // its group: wrangler and workerd with it
  } catch {
    // gone already
  }
  server = null;
};
process.on("exit", stopServer);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(130));
/** Waits for the early server as Playwright would wait for its own (playwright.config.ts, 300 s). */
async function serverReady() {
  const until = Date.now() + 300_000;
  while (server && Date.now() < until) {
    if (await answers()) return true;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  console.log(`The e2e server did not answer on ${serverUrl}:\n${readFileSync(serverLog, "utf8").slice(-4_000)}`);
  return false;
}

const report = () => {
  for (const [step, s, ok] of times) console.log(`${ok ? "  " : "✗ "}${step.padEnd(14)} ${s.toFixed(1).padStart(7)} s`);
  const total = times.reduce((sum, [, s]) => sum + s, 0);
  console.log(`  ${"total".padEnd(14)} ${total.toFixed(1).padStart(7)} s`);
};

// The server serves build/: it starts once the build step is done, or first when no step builds.
const e2eAt = steps.indexOf("e2e");
const serverAfter = steps.indexOf("build");
if (e2eAt > serverAfter + 1 && serverAfter === -1) await startServer();
for (const [i, step] of steps.entries()) {
  const [cmd, ...rest] = STEPS[step];
  const started = performance.now();
  const ready = step === "e2e" && server ? await serverReady() : true;
  const run = ready
    ? spawnSync(cmd, [...rest, ...(i === steps.length - 1 ? extra : [])], {
        cwd: root,
        env: server && step === "e2e" ? { ...env, E2E_SERVER_STARTED: "1" } : env,
        stdio: "inherit",
      })
    : { status: 1 };
  const ok = run.status === 0;
  if (ok && i === serverAfter && e2eAt > i + 1) await startServer();
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
// The server child would keep this process alive: stop it (its process group) and leave.
stopServer();
