// The code the Worker evaluates when it starts (decision 234): a deterministic stand-in for its start-up
// CPU, which `npm run test:budget` holds under STARTUP_CODE_BUDGET_KIB so it cannot creep back (the time
// itself is measured by tests/bench/startup.ts in `npm run bench`: a timing is no pass/fail test).
//
// The server build (build/index.js) is one file. esbuild wraps a module that is reached through a dynamic
// `import()` or a `require` in a function that runs on first use (`__esm`, `__commonJS`); every other module's
// top level runs at start-up. This loads the build in Node with those wrappers recording their module when
// they run, and sums, from the build's metafile, the bytes of every module whose top level ran: the modules
// never wrapped and the wrapped ones a start-up pulled in. A new static import of a heavy package, or a lazy
// one made eager again, adds its bytes here.
import { readFileSync, rmSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * 2026-11-27: 3,667 KiB evaluated at start-up of the server build's 4,255 (4,018 before the lazy imports of
 * decision 234), 971 of them the translations' JSON texts. The headroom is smaller than React's server
 * renderer (105 KiB) or libphonenumber-js (190 KiB): either made eager again fails. After the day's merges
 * (new pages, their translations in 11 languages): 3,847 KiB, ceiling 3,900.
 */
export const STARTUP_CODE_BUDGET_KIB = 3900;

const HELPERS = [
  [
    "var __esm = (fn, res) => function() {\n  return fn && (",
    "globalThis.__startupRan.add(__getOwnPropNames(fn)[0]), ",
  ],
  [
    "var __commonJS = (cb, mod) => function() {\n  return mod || (",
    "globalThis.__startupRan.add(__getOwnPropNames(cb)[0]), ",
  ],
];

/** The modules of `src` that run only when first used: the keys of its `__esm` and `__commonJS` wrappers. */
export function wrappedModules(src) {
  return new Set([...src.matchAll(/= (?:__esm|__commonJS)\(\{\n {2}"([^"]+)"\(/g)].map((m) => m[1]));
}

/** The build with each wrapper recording its module on its first run, loadable by Node. */
export function instrument(src) {
  let out = src;
  for (const [at, add] of HELPERS) {
    if (!out.includes(at)) throw new Error(`esbuild's helper changed shape, update scripts/startup-code.mjs: ${at}`);
    out = out.replace(at, at + add);
  }
  // workerd's own module: a stand-in base class is enough to evaluate the module graph.
  return out.replace(
    /^import \{ DurableObject(?: as (\w+))? \} from "cloudflare:workers";$/gm,
    (_, as) => `const ${as ?? "DurableObject"} = class {};`,
  );
}

/** { kib, totalKiB, eager: [[module, bytes]] biggest first, lazy: [[module, bytes]] }. */
export async function measureStartupCode(build = "build/index.js", metafile = "build/metafile.server.json") {
  const src = readFileSync(build, "utf8");
  const inputs = JSON.parse(readFileSync(metafile, "utf8")).outputs[build].inputs;
  const wrapped = wrappedModules(src);
  const dir = mkdtempSync(join(tmpdir(), "startup-code-"));
  const file = join(dir, "index.mjs");
  writeFileSync(file, instrument(src));
  globalThis.__startupRan = new Set();
  try {
    await import(pathToFileURL(file).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ran = globalThis.__startupRan;
  const eager = [];
  const lazy = [];
  for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
    (!wrapped.has(input) || ran.has(input) ? eager : lazy).push([input, bytesInOutput]);
  }
  const kib = (xs) => xs.reduce((s, [, b]) => s + b, 0) / 1024;
  const biggest = (xs) => xs.sort((a, b) => b[1] - a[1]);
  return { kib: kib(eager), totalKiB: kib(eager) + kib(lazy), eager: biggest(eager), lazy: biggest(lazy) };
}

export async function checkStartupCode() {
  const { kib, totalKiB, eager } = await measureStartupCode();
  const ok = kib <= STARTUP_CODE_BUDGET_KIB;
  console.log(
    `Code evaluated at start-up: ${kib.toFixed(0)} KiB of the server build's ${totalKiB.toFixed(0)} KiB — budget ${STARTUP_CODE_BUDGET_KIB} KiB: ${ok ? "OK" : "OVER BUDGET"}`,
  );
  if (!ok) {
    console.log(
      `Load what few requests need on first use (a dynamic import(), decision 234). The largest evaluated at start-up:\n  ${eager
        .slice(0, 15)
        .map(([m, b]) => `${(b / 1024).toFixed(0).padStart(5)} KiB ${m}`)
        .join("\n  ")}`,
    );
  }
  return ok;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { kib, eager, lazy } = await measureStartupCode();
  console.log(`${kib.toFixed(0)} KiB evaluated at start-up`);
  const list = process.argv.includes("--lazy") ? lazy : eager;
  for (const [m, b] of list.slice(0, Number(process.argv.at(-1)) || 30))
    console.log(`${(b / 1024).toFixed(1).padStart(7)} ${m}`);
}
