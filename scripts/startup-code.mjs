// The code the Worker compiles when it starts (decisions 234, 237): a deterministic stand-in for its
// start-up CPU, which `npm run test:budget` holds under STARTUP_CODE_BUDGET_KIB so it cannot creep back
// (the time itself is measured by tests/bench/startup.ts and tests/bench/startup-cpu.ts: a timing is no
// pass/fail test).
//
// The server build splits (scripts/remix-build.mjs): build/index.js, and under build/chunks one module for
// each dynamic import() and one for each piece of code such modules share. workerd compiles a module when
// it is first imported: at start-up the entry and every chunk it imports statically (import statements,
// transitively); a chunk reached only through an import() waits for the request that needs it. This sums,
// from the build's metafile, the bytes of the modules compiled at start-up. A new static import of a
// heavy package, or a lazy one made eager again, adds its bytes here.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/**
 * 2026-11-27: 1,967 KiB compiled at start-up of the server build's 4,691 (decision 242: the console's and
 * the dev tools' routes load on first use; 2,509 before, and before the split of decision 237 the whole
 * build, 4,255 KiB). The headroom is smaller than any one language's messages (about 95 KiB), React's
 * server renderer (105 KiB), the disposable-domain list (200 KiB) or the console's routes (about 450 KiB):
 * any of them made eager again fails.
 */
export const STARTUP_CODE_BUDGET_KIB = 2050;

/** The outputs workerd compiles at start-up: the entry and what it imports statically, transitively. */
export function startupOutputs(outputs, entry = "build/index.js") {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file) || !outputs[file]) return;
    seen.add(file);
    for (const i of outputs[file].imports ?? []) if (i.kind === "import-statement") visit(i.path);
  };
  visit(entry);
  return seen;
}

/** { kib, totalKiB, eager: [[module, bytes]] biggest first, lazy: [[module, bytes]] }. */
export function measureStartupCode(metafile = "build/metafile.server.json") {
  const { outputs } = JSON.parse(readFileSync(metafile, "utf8"));
  const atStart = startupOutputs(outputs);
  const eager = [];
  const lazy = [];
  for (const [file, { inputs }] of Object.entries(outputs)) {
    if (!file.endsWith(".js")) continue;
    for (const [input, { bytesInOutput }] of Object.entries(inputs))
      (atStart.has(file) ? eager : lazy).push([input, bytesInOutput]);
  }
  const kib = (xs) => xs.reduce((s, [, b]) => s + b, 0) / 1024;
  const biggest = (xs) => xs.sort((a, b) => b[1] - a[1]);
  return { kib: kib(eager), totalKiB: kib(eager) + kib(lazy), eager: biggest(eager), lazy: biggest(lazy) };
}

export async function checkStartupCode() {
  const { kib, totalKiB, eager } = measureStartupCode();
  const ok = kib <= STARTUP_CODE_BUDGET_KIB;
  console.log(
    `Code compiled at start-up: ${kib.toFixed(0)} KiB of the server build's ${totalKiB.toFixed(0)} KiB — budget ${STARTUP_CODE_BUDGET_KIB} KiB: ${ok ? "OK" : "OVER BUDGET"}`,
  );
  if (!ok) {
    console.log(
      `Load what few requests need on first use (a dynamic import(), decisions 234 and 237). The largest compiled at start-up:\n  ${eager
        .slice(0, 15)
        .map(([m, b]) => `${(b / 1024).toFixed(0).padStart(5)} KiB ${m}`)
        .join("\n  ")}`,
    );
  }
  return ok;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { kib, eager, lazy } = measureStartupCode();
  console.log(`${kib.toFixed(0)} KiB compiled at start-up`);
  const list = process.argv.includes("--lazy") ? lazy : eager;
  for (const [m, b] of list.slice(0, Number(process.argv.at(-1)) || 30))
    console.log(`${(b / 1024).toFixed(1).padStart(7)} ${m}`);
}
