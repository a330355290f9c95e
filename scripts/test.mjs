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
 * migrations, seed, wrangler dev) starts right after the build (decision 220). With TEST_OVERLAP=1 the
 * end-to-end suite runs beside the worker suites as soon as the server answers, its output printed when
 * it is done (decision 241).
 */
import { spawn, spawnSync } from "node:child_process";
import { openSync, readFileSync, writeFileSync } from "node:fs";
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

const report = (wall) => {
  for (const [step, s, ok] of times) console.log(`${ok ? "  " : "✗ "}${step.padEnd(14)} ${s.toFixed(1).padStart(7)} s`);
  console.log(
    `  ${"total".padEnd(14)} ${wall.toFixed(1).padStart(7)} s${overlap ? " (wall; e2e ran beside the worker suites)" : ""}`,
  );
};

const children = new Set();
process.on("exit", () => children.forEach((c) => c.kill("SIGTERM")));
/** A step's command, its output on this terminal or in `log`; resolves with its exit status. */
function run(step, { last, log } = {}) {
  const [cmd, ...rest] = STEPS[step];
  const out = log ? openSync(log, "w") : "inherit";
  const child = spawn(cmd, [...rest, ...(last ? extra : [])], {
    cwd: root,
    env: server && step === "e2e" ? { ...env, E2E_SERVER_STARTED: "1" } : env,
    stdio: ["ignore", out, out],
  });
  children.add(child);
  return new Promise((done) =>
    child.on("exit", (code) => {
      children.delete(child);
      done(code ?? 1);
    }),
  );
}

// The server serves build/: it starts once the build step is done, or first when no step builds.
const e2eAt = steps.indexOf("e2e");
const serverAfter = steps.indexOf("build");
// TEST_OVERLAP=1 runs the end-to-end suite beside the worker suites as soon as its server answers
// (decision 241). Off by default: on two cores it finished once a minute earlier and once three and a
// half minutes later than one suite after the other.
const overlap =
  process.env.TEST_OVERLAP === "1" && serverAfter !== -1 && steps.slice(serverAfter + 1, e2eAt).includes("worker");
const e2eLog = path.join(os.tmpdir(), `e2e-${port}.log`);
let e2eRun = null;
const began = performance.now();
const fail = (step, status) => {
  console.log(`\n${step} failed:`);
  report((performance.now() - began) / 1000);
  process.exit(status || 1);
};
if (e2eAt > serverAfter + 1 && serverAfter === -1) await startServer();
for (const [i, step] of steps.entries()) {
  const started = performance.now();
  if (step === "e2e" && e2eRun) {
    const [code, seconds] = await e2eRun;
    console.log(`\nThe end-to-end suite (it ran beside the worker suites; its output, also in ${e2eLog}):\n`);
    process.stdout.write(readFileSync(e2eLog, "utf8"));
    times.push([step, seconds, code === 0]);
    if (code !== 0) fail(step, code);
    continue;
  }
  const status =
    step === "e2e" && server && !(await serverReady()) ? 1 : await run(step, { last: i === steps.length - 1 });
  const ok = status === 0;
  if (ok && i === serverAfter && e2eAt > i + 1) {
    await startServer();
    if (overlap) {
      writeFileSync(e2eLog, "");
      e2eRun = (async () => {
        if (server && !(await serverReady())) return [1, 0];
        const t = performance.now();
        const code = await run("e2e", { last: e2eAt === steps.length - 1, log: e2eLog });
        return [code, (performance.now() - t) / 1000];
      })();
    }
  }
  times.push([step, (performance.now() - started) / 1000, ok]);
  if (!ok) fail(step, status);
}
if (steps.length > 1) {
  console.log("\nWall time per step:");
  report((performance.now() - began) / 1000);
}
// The server child would keep this process alive: stop it (its process group) and leave.
stopServer();
process.exit(0);
