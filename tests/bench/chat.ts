/**
 * Chat benchmark: delivery latency between two WebSocket clients through a conversation's ChatRoom
 * object (charge + store in D1, then broadcast), and the messages per second one conversation
 * sustains, beside a bare relay object (EchoRoom) in the same run.
 *
 *   npx wrangler dev --port 8787 --ip 127.0.0.1          # in another shell (after npm run build)
 *   node_modules/.bin/node --experimental-strip-types tests/bench/chat.ts [http://127.0.0.1:8787] [.wrangler/state/v3]
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
const SAMPLES = 1000;
const BURST = 2000;

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

  const a = await member("Bench A");
  const b = await member("Bench B");
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
  await proxy.dispose();

  const chatA = await open(base, `/ws/chat/${conversationId}`, a.cookie);
  const chatB = await open(base, `/ws/chat/${conversationId}`, b.cookie);
  const chat = await run(
    "ChatRoom (auth'd socket, D1 charge+store, broadcast)",
    chatB,
    (i) =>
      chatA.ws.send(JSON.stringify({ type: "send", clientId: `bench-${conversationId}-${i}`, body: `message ${i}` })),
    (text) => text.startsWith('{"type":"message"'),
  );
  const room = `/ws/echo/${randomId(8)}`;
  const echoA = await open(base, room, a.cookie);
  const echoB = await open(base, room, b.cookie);
  const echo = await run(
    "EchoRoom (bare relay, no D1)",
    echoB,
    (i) => echoA.ws.send(`echo ${i}`),
    () => true,
  );
  for (const c of [chatA, chatB, echoA, echoB]) c.ws.close(1000);
  return [chat, echo];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const base = process.argv[2] ?? "http://127.0.0.1:8787";
  const rows = await chatBench(base, process.argv[3] ?? ".wrangler/state/v3");
  console.log(
    `chat benchmark against ${base}: ${SAMPLES} sequential messages (after ${WARMUP} warm-up), then a burst of ${BURST}`,
  );
  console.table(rows);
}
