/**
 * `npm run bench`: performance figures of docs/architecture/budgets.md §6 on a warm local workerd (wrangler dev).
 * Server times are wall times on loopback (median and p95 of many requests), shown next to a trivial
 * route of the same Worker so the ratio says what the page itself costs.
 */
import { execSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import { benchPort, freshState, startBenchServer } from "./server.ts";

const PORT = benchPort(8790);
const BASE = `http://127.0.0.1:${PORT}`;
const STATE = `.wrangler/bench-${PORT}`;

/** The demo data (db/seed.ts) in a fresh state, served with the images Worker beside the app. */
function startServer() {
  freshState(STATE);
  execSync(`node --experimental-strip-types db/seed.ts`, {
    stdio: "ignore",
    env: { ...process.env, WRANGLER_PERSIST: `${STATE}/v3` },
  });
  return startBenchServer({ port: PORT, state: STATE, configs: ["workers/images/wrangler.toml"] });
}

/** Median and p95 of the Worker's own time (Server-Timing, as workerd measures it) and of the round trip. */
export async function timeRoute(path: string, n = 200, init?: RequestInit) {
  for (let i = 0; i < 20; i++) await (await fetch(BASE + path, init)).arrayBuffer(); // warm
  const server: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(BASE + path, init);
    await res.arrayBuffer();
    wall.push(performance.now() - t);
    server.push(Number(/dur=([\d.]+)/.exec(res.headers.get("Server-Timing") ?? "")?.[1] ?? NaN));
  }
  const pick = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)]!;
  // workerd's clock ticks in whole milliseconds: the mean over many requests resolves below that.
  const mean = server.reduce((a, b) => a + b, 0) / server.length;
  return { mean, p95: pick(server, 0.95), wallP50: pick(wall, 0.5), wallP95: pick(wall, 0.95) };
}

async function landingJsGzip() {
  const html = await (await fetch(`${BASE}/`, { headers: { Cookie: "entry_ok=1" } })).text();
  const srcs = new Set<string>();
  for (const m of html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+)"/g))
    srcs.add(m[1]!);
  for (const m of html.matchAll(/import\(?\s*"(\/build\/[^"]+\.js)"/g)) srcs.add(m[1]!);
  let total = 0;
  for (const src of srcs)
    total += gzipSync(Buffer.from(await (await fetch(BASE + src)).arrayBuffer()), { level: 9 }).length;
  return { files: srcs.size, bytes: total };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n: number) => `${n.toFixed(2)} ms`;

const server = await startServer();
try {
  const trivial = await timeRoute("/healthz");
  const landing = await timeRoute("/", 200, { headers: { Cookie: "entry_ok=1" } });
  const staticPage = await timeRoute("/pages/terms", 200, { headers: { Cookie: "entry_ok=1" } });
  console.log(
    "\n== Warm workerd: time inside the Worker (Server-Timing mean, p95) and the loopback round trip (p50, p95) ==",
  );
  const line = (name: string, r: Awaited<ReturnType<typeof timeRoute>>) =>
    console.log(
      `${name.padEnd(26)} worker mean ${ms(r.mean)} p95 ${ms(r.p95)} | round trip p50 ${ms(r.wallP50)} p95 ${ms(r.wallP95)}` +
        ` | ratio to trivial ${(r.wallP50 / trivial.wallP50).toFixed(2)}x`,
    );
  line("trivial route /healthz", trivial);
  line("landing /", landing);
  line("static page /pages/terms", staticPage);
  const { paymentsBench } = await import("./payments.ts");
  const pay = await paymentsBench(BASE, timeRoute);
  line("method page /credits/p1/ideal", pay.methodPage);
  line("webhook, replayed (no-op)", pay.webhook);
  console.log(
    `${"sandbox pays + webhook".padEnd(26)} worker mean ${ms(pay.settle.mean)} p95 ${ms(pay.settle.p95)} (50 payments, each applied once)`,
  );
  const js = await landingJsGzip();
  console.log(
    `\n== Client JavaScript for a first-time visitor of / ==\n${js.files} files, ${kb(js.bytes)} gzip (budget 100 KB)`,
  );
  // The same figure CI checks (scripts/bundle-budget.mjs, decision 171).
  const { measureBundle, BUDGET_KIB } = await import("../../scripts/bundle-budget.mjs");
  const bundle = measureBundle("production");
  console.log(
    `\n== Worker bundle (production, as wrangler reports it) ==\n${bundle.rawKiB} KiB raw, ${bundle.gzipKiB} KiB gzip (budget ${BUDGET_KIB} KiB)`,
  );
  const { moderationBench } = await import("./moderation.ts");
  const mod = await moderationBench(BASE, `${STATE}/v3`, timeRoute);
  console.log(`\n== Moderation: the /admin/reports queue with ${mod.open} open cases ==`);
  line("queue /admin/reports", mod.queue);
  console.log(`query plan, page: ${mod.plans.page}\nquery plan, oldest + count: ${mod.plans.oldest}`);
  const { chatBench } = await import("./chat.ts");
  console.log(
    "\n== Chat: one conversation's object next to a bare echo object; the site with 1, 10, 50 conversations at once; D1 rows per message ==",
  );
  console.table(await chatBench(BASE, `${STATE}/v3`));
} finally {
  server.stop();
}
