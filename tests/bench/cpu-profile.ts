/**
 * A CPU profile of a running `wrangler dev` (the Worker and its Durable Objects share one isolate),
 * taken through its inspector while something else loads it, e.g. the chat bench. It prints the
 * functions with the most self and inclusive time and writes the .cpuprofile (Chrome DevTools opens it).
 * workerd does not advance timers inside synchronous code, so timing steps with performance.now()
 * shows nothing; the sampling profiler does (decision 196). Samples are wall time: on a busy machine
 * a descheduled thread counts too, so compare shares within one profile, not across machines.
 *
 *   BENCH_PORT=8922 BENCH_SITE=0 BENCH_SAMPLES=3000 node --experimental-strip-types tests/bench/chat.ts &
 *   node --experimental-strip-types tests/bench/cpu-profile.ts 9922 5 /tmp/chat.cpuprofile   # inspector = port + 1000
 *
 * Function names are minified in the build: each line shows the start of the function's source too.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

type Frame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type Node = { id: number; callFrame: Frame; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const [port = "9922", seconds = "5", out = "/tmp/worker.cpuprofile"] = process.argv.slice(2);

// The bundle wrangler serves, to show what a minified name is.
const tmp = ".wrangler/tmp";
const bundle = readdirSync(tmp, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name.startsWith("dev-"))
  .map((d) => {
    try {
      return readFileSync(`${tmp}/${d.name}/entry.worker.js`, "utf8").split("\n");
    } catch {
      return null;
    }
  })
  .find((b) => b !== null);

// wrangler's inspector proxy only accepts the DevTools origin.
const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, {
  headers: { Origin: "https://devtools.devprod.cloudflare.dev" },
} as unknown as string[]);
let next = 0;
const waiting = new Map<number, (result: unknown) => void>();
ws.addEventListener("message", (e) => {
  const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
  if (m.id !== undefined) waiting.get(m.id)?.(m.result);
});
const call = <T>(method: string, params: object = {}) =>
  new Promise<T>((resolve) => {
    waiting.set(++next, resolve as (r: unknown) => void);
    ws.send(JSON.stringify({ id: next, method, params }));
  });
await new Promise((resolve, reject) => {
  ws.addEventListener("open", resolve);
  ws.addEventListener("error", () => reject(new Error(`no inspector on port ${port}`)));
});
await call("Profiler.enable");
await call("Profiler.setSamplingInterval", { interval: 50 });
await call("Profiler.start");
await new Promise((r) => setTimeout(r, Number(seconds) * 1000));
const { profile } = await call<{ profile: Profile }>("Profiler.stop");
writeFileSync(out, JSON.stringify(profile));
ws.close();

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const key = (f: Frame) => `${f.functionName || "(anonymous)"}@${f.lineNumber}:${f.columnNumber}`;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
profile.samples.forEach((sample, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const k = key(byId.get(sample)!.callFrame);
  self.set(k, (self.get(k) ?? 0) + dt);
  const seen = new Set<string>();
  for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
    const f = key(byId.get(id)!.callFrame);
    if (!seen.has(f)) inclusive.set(f, (inclusive.get(f) ?? 0) + dt);
    seen.add(f);
  }
});
function show(title: string, m: Map<string, number>) {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    const [, line, col] = /@(-?\d+):(-?\d+)$/.exec(k)!.map(Number);
    const source = line! >= 0 && bundle ? (bundle[line!]?.slice(col, col! + 60).replace(/\s+/g, " ") ?? "") : "";
    console.log(
      `${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k.padEnd(30)} ${source}`,
    );
  }
}
console.log(`${(total / 1000).toFixed(0)} ms sampled; profile written to ${out}`);
show("self", self);
show("inclusive", inclusive);
