/**
 * The Worker's start-up as CPU time, for a busy machine (decision 234). `wrangler check startup`
 * (tests/bench/startup.ts) counts sampled wall time, which a loaded machine inflates many times, and gives
 * up after 10 s. This starts the production bundle in workerd through Miniflare with the same entry as
 * wrangler's profiler (a module that imports the Worker on its first request) and reads the CPU time all
 * of workerd's threads spent on that request from /proc (Linux), for each `--root` (a built checkout)
 * interleaved, median of RUNS. workerd answering the same request from an empty Worker costs about 2.5 ms
 * of it.
 *
 *   npm run build && node --experimental-strip-types tests/bench/startup-cpu.ts [--root <checkout> ...]
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";

const RUNS = Number(process.env.STARTUP_RUNS ?? 7);
const { Miniflare, convertV4MiniflareOptions } = createRequire(import.meta.url)("miniflare");
const roots = process.argv.flatMap((a: string, i: number) => (process.argv[i - 1] === "--root" ? [resolve(a)] : []));
if (!roots.length) roots.push(resolve("."));

/** Nanoseconds on the CPU of every thread of these processes (/proc/<pid>/task/<tid>/schedstat). */
function cpuNs(pids: string[]): number {
  let ns = 0;
  for (const pid of pids) {
    // The `ps` that listed them has exited since.
    const tasks = existsSync(`/proc/${pid}/task`) ? readdirSync(`/proc/${pid}/task`) : [];
    for (const tid of tasks) ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
  }
  return ns;
}

function descendants(pid: number): string[] {
  let children: string[] = [];
  try {
    children = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
      .trim()
      .split(/\s+/);
  } catch {
    return []; // ps exits 1 when there are none
  }
  return children.filter(Boolean).flatMap((c) => [c, ...descendants(Number(c))]);
}

/** The split build's modules uploaded beside the entry (decision 237), as the dry run wrote them. */
function chunksBeside(bundle: string): { type: "ESModule"; path: string; contents: string }[] {
  const dir = join(bundle, "..", "chunks");
  if (!existsSync(dir)) return []; // a checkout from before the split
  return readdirSync(dir).map((f) => ({
    type: "ESModule",
    path: `/chunks/${f}`,
    contents: readFileSync(join(dir, f), "utf8"),
  }));
}

async function startupMs(bundle: string, compatibility: { date: string; flags: string[] }): Promise<number> {
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      name: "startup",
      compatibilityDate: compatibility.date,
      compatibilityFlags: compatibility.flags,
      modulesRoot: "/",
      modules: [
        {
          type: "ESModule",
          path: "/startup-entry.mjs",
          contents: `export default { async fetch() { await import("./entry.worker.js"); return new Response("ok"); } };`,
        },
        { type: "ESModule", path: "/entry.worker.js", contents: readFileSync(bundle, "utf8") },
        ...chunksBeside(bundle),
      ],
    }),
  );
  try {
    await mf.ready;
    const workerd = descendants(process.pid);
    const before = cpuNs(workerd);
    await (await mf.dispatchFetch("https://example.com")).text();
    return (cpuNs(workerd) - before) / 1e6;
  } finally {
    await mf.dispose();
  }
}

const work = mkdtempSync(join(tmpdir(), "startup-cpu-"));
/** The checkout's compatibility date and flags, as its wrangler.toml sets them for every environment. */
function compatibilityOf(root: string): { date: string; flags: string[] } {
  const toml = readFileSync(join(root, "wrangler.toml"), "utf8");
  const flags = /^compatibility_flags = (\[.*\])$/m.exec(toml)?.[1];
  return {
    date: /^compatibility_date = "(.+)"$/m.exec(toml)![1]!,
    flags: flags ? (JSON.parse(flags) as string[]) : [],
  };
}
for (const [i, root] of roots.entries()) {
  execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--env", "production", "--outdir", join(work, String(i))], {
    cwd: root,
    stdio: "ignore",
  });
}
const times: number[][] = roots.map(() => []);
const loads: number[] = [];
for (let run = 0; run < RUNS; run++) {
  for (const [i, root] of roots.entries()) {
    times[i]!.push(await startupMs(join(work, String(i), "entry.worker.js"), compatibilityOf(root)));
    loads.push(loadavg()[0]!);
  }
}
rmSync(work, { recursive: true, force: true });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [i, root] of roots.entries()) {
  console.log(
    `${root}: start-up CPU ${median(times[i]!).toFixed(1)} ms median of ${times[i]!.map((x) => x.toFixed(1)).join(", ")}`,
  );
}
console.log(`load average during the runs: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
