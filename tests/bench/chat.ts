/**
 * Chat benchmark: delivery latency between two WebSocket clients through a conversation's ChatRoom
 * object (rules cached, charge in the sender's wallet, store in the room's own SQLite, broadcast;
 * decisions 189 and 190), and the messages per second one conversation sustains, beside a bare relay
 * object (EchoRoom) in the same run. Then the site line: 1, 10 and 50 conversations at once (two
 * sockets each), aggregate msgs/s; and the D1 rows the rooms wrote per message over the whole bench
 * (each room counts the rows D1 reports in meta.rows_written for its coalesced overview writes; read
 * through the dev-only /dev/chat-stats/<id>, which first writes what is pending).
 *
 *   npm run build && BENCH_PORT=8860 node --experimental-strip-types tests/bench/chat.ts   # serves itself
 *   node --experimental-strip-types tests/bench/chat.ts http://127.0.0.1:8787 .wrangler/state/v3  # a running wrangler dev
 *
 * It adds two bench members and a conversation to that local D1 (through getPlatformProxy).
 * tests/bench/run.ts can also import `chatBench(base, persist)` and print its rows.
 */
import { getPlatformProxy } from "wrangler";
import { pathToFileURL } from "node:url";
import { hashPassword, randomId } from "../../app/lib/password.ts";
const PEPPER = "dev-pepper-not-for-production";
const PASSWORD = "Bench-pass-2026";
const WARMUP = 50;
// BENCH_SAMPLES / BENCH_BURST / BENCH_SITE=0 make a quick look (a profile step); the figures in docs/architecture/budgets.md §6 use the defaults.
const SAMPLES = Number(process.env.BENCH_SAMPLES) || 1000;
const BURST = Number(process.env.BENCH_BURST) || 2000;
/** Messages each conversation sends in the site line. */
const SITE_BURST = 300;
const SITE_CONVERSATIONS = process.env.BENCH_SITE === "0" ? [] : [1, 10, 50];

type Conn = { ws: WebSocket; onText: (f: (text: string) => void) => void };
function open(base: string, path: string, cookie: string): Promise<Conn> {
  const url = base.replace(/^http/, "ws") + path;
  // Node's WebSocket (undici) accepts headers as a non-standard option.
  const ws = new WebSocket(url, { headers: { Cookie: cookie, Origin: base } } as unknown as string[]);
  let handler: (text: string) => void = () => {};
  ws.addEventListener("message", (e) => handler(String(e.data)));
  return new Promise((resolve, reject) => {
    ws.addEventListener("open", () => resolve({ ws, onText: (f) => (handler = f) }));
    ws.addEventListener("error", () => reject(new Error(`cannot open ${path}`)));
  });
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** `send(i)` sends message i from A; `isDelivery(text)` says B received one. */
async function run(label: string, to: Conn, send: (i: number) => void, isDelivery: (text: string) => boolean) {
  let resolveOne: () => void = () => {};
  to.onText((text) => isDelivery(text) && resolveOne());
  const latencies: number[] = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const got = new Promise<void>((r) => (resolveOne = r));
    const t0 = performance.now();
    send(i);
    await got;
    if (i >= WARMUP) latencies.push(performance.now() - t0);
  }
  latencies.sort((x, y) => x - y);
  let received = 0;
  const all = new Promise<void>((r) => (resolveOne = () => ++received === BURST && r()));
  const t0 = performance.now();
  for (let i = 0; i < BURST; i++) send(WARMUP + SAMPLES + i);
  await all;
  const seconds = (performance.now() - t0) / 1000;
  const row = {
    label,
    p50_ms: +pct(latencies, 50).toFixed(2),
    p99_ms: +pct(latencies, 99).toFixed(2),
    msgs_per_s: Math.round(BURST / seconds),
  };
  return row;
}

/** Runs both measurements against a running `wrangler dev` whose local state is at `persist`. */
export async function chatBench(base: string, persist: string) {
  const proxy = await getPlatformProxy<{ DB: D1Database }>({ persist: { path: persist } });
  const { DB } = proxy.env;

  async function member(name: string) {
    const id = `bench-${randomId(6)}`;
    const email = `${id}@bench.example`.toLowerCase();
    await DB.batch([
      DB.prepare(
        "INSERT INTO users (id, brand_id, email, password_hash, paid_user, credits, status) VALUES (?1, (SELECT id FROM brands WHERE is_default = 1), ?2, ?3, 1, 100000000, 'confirmed')",
      ).bind(id, email, await hashPassword(PASSWORD, PEPPER, 1000)),
      DB.prepare(
        "INSERT INTO profiles (user_id, name, gender, date_of_birth, country) VALUES (?1, ?2, 'female', '1990-01-01', 'NL')",
      ).bind(id, name),
    ]);
    const res = await fetch(`${base}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email, password: PASSWORD, redirectTo: "/" }),
    });
    const cookie = res.headers.get("set-cookie")?.split(";")[0];
    if (!cookie) throw new Error(`login failed (${res.status})`);
    return { id, cookie };
  }

  async function conversation(a: { id: string }, b: { id: string }) {
    const conversationId = randomId(12);
    const [ma, mb] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
    await DB.batch([
      DB.prepare("INSERT INTO conversations (id, member_a, member_b, started_by) VALUES (?1, ?2, ?3, ?2)").bind(
        conversationId,
        ma,
        mb,
      ),
      DB.prepare("INSERT INTO conversation_members (conversation_id, user_id) VALUES (?1, ?2), (?1, ?3)").bind(
        conversationId,
        ma,
        mb,
      ),
    ]);
    return conversationId;
  }

  const a = await member("Bench A");
  const b = await member("Bench B");
  const conversationId = await conversation(a, b);
  // The site line's pairs: one pair of members per conversation. One at a time: the bench's D1 proxy and
  // the server's logins write the same local SQLite file, which refuses concurrent writers.
  const most = Math.max(0, ...SITE_CONVERSATIONS);
  const pairs: { a: { id: string; cookie: string }; b: { id: string; cookie: string }; id: string }[] = [];
  for (let i = 0; i < most; i++) {
    const x = await member(`Site A${i}`);
    const y = await member(`Site B${i}`);
    pairs.push({ a: x, b: y, id: await conversation(x, y) });
  }
  await proxy.dispose();

  const chatA = await open(base, `/ws/chat/${conversationId}`, a.cookie);
  const chatB = await open(base, `/ws/chat/${conversationId}`, b.cookie);
  const chat = await run(
    "ChatRoom (auth'd socket, wallet charge, room SQLite store, broadcast)",
    chatB,
    (i) =>
      chatA.ws.send(JSON.stringify({ type: "send", clientId: `bench-${conversationId}-${i}`, body: `message ${i}` })),
    (text) => text.startsWith('{"type":"message"'),
  );
  /** A relay room of its own, A sending and B counting every frame. */
  async function relay(label: string, query = "") {
    const room = `/ws/echo/${randomId(8)}${query}`;
    const [from, to] = [await open(base, room, a.cookie), await open(base, room, b.cookie)];
    const row = await run(
      label,
      to,
      (i) => from.ws.send(`echo ${i}`),
      () => true,
    );
    for (const c of [from, to]) c.ws.close(1000);
    return row;
  }
  const echo = await relay("EchoRoom (bare relay, no D1)");
  // The same relay writing each frame as one SQLite row first: what the durable write alone costs.
  const echoStore = await relay("EchoRoom + one SQLite row per message (the durable write alone)", "?store=1");
  for (const c of [chatA, chatB]) c.ws.close(1000);

  // The site: n conversations at once, each A sending SITE_BURST messages to its B as fast as it can.
  const site = [];
  let round = 0;
  for (const n of SITE_CONVERSATIONS) {
    round += 1;
    const used = pairs.slice(0, n);
    const sockets = await Promise.all(
      used.map(async (p) => ({
        p,
        from: await open(base, `/ws/chat/${p.id}`, p.a.cookie),
        to: await open(base, `/ws/chat/${p.id}`, p.b.cookie),
      })),
    );
    const t0 = performance.now();
    await Promise.all(
      sockets.map(
        ({ p, from, to }) =>
          new Promise<void>((resolve) => {
            let received = 0;
            to.onText((text) => {
              if (text.startsWith('{"type":"message"') && ++received === SITE_BURST) resolve();
            });
            for (let i = 0; i < SITE_BURST; i++)
              from.ws.send(JSON.stringify({ type: "send", clientId: `site-${round}-${p.id}-${i}`, body: `site ${i}` }));
          }),
      ),
    );
    const seconds = (performance.now() - t0) / 1000;
    for (const s of sockets) for (const c of [s.from, s.to]) c.ws.close(1000);
    site.push({
      label: `site: ${n} conversation${n > 1 ? "s" : ""} at once (${2 * n} sockets)`,
      p50_ms: null,
      p99_ms: null,
      msgs_per_s: Math.round((n * SITE_BURST) / seconds),
    });
  }

  // D1 rows the rooms wrote per message sent, over everything above.
  let messages = 0;
  let rows = 0;
  let writes = 0;
  for (const id of [conversationId, ...pairs.map((p) => p.id)]) {
    const stats = (await (await fetch(`${base}/dev/chat-stats/${id}`)).json()) as {
      messages: number;
      d1RowsWritten: number;
      overviewWrites: number;
    };
    messages += stats.messages;
    rows += stats.d1RowsWritten;
    writes += stats.overviewWrites;
  }
  const d1 = {
    label: `D1 rows written per message by the rooms (${rows} rows in ${writes} overview writes / ${messages} messages)`,
    p50_ms: null,
    p99_ms: null,
    msgs_per_s: +(rows / Math.max(1, messages)).toFixed(4),
  };
  return [chat, echo, echoStore, ...site, d1];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // Without a URL it serves the built Worker itself, on BENCH_PORT (default 8795), over a fresh state.
  const own = process.argv[2]
    ? null
    : await (async () => {
        const { benchPort, freshBrandState, startBenchServer } = await import("./server.ts");
        const port = benchPort(8795);
        const state = `.wrangler/bench-${port}`;
        await (await freshBrandState(state)).dispose();
        return { state: `${state}/v3`, server: await startBenchServer({ port, state }) };
      })();
  const base = own?.server.base ?? process.argv[2]!;
  try {
    const rows = await chatBench(base, own?.state ?? process.argv[3] ?? ".wrangler/state/v3");
    console.log(
      `chat benchmark against ${base}: ${SAMPLES} sequential messages (after ${WARMUP} warm-up), then a burst of ${BURST}; site: ${SITE_BURST} per conversation`,
    );
    console.table(rows);
  } finally {
    own?.server.stop();
  }
}
