/** Helpers for the chat and credits worker tests: conversations, sockets, reads. */
import { env, evictDurableObject, runInDurableObject, SELF } from "cloudflare:test";
import { expect } from "vitest";
import type { ServerFrame } from "../../app/chat/protocol";
import type { Env } from "../../app/lib/env";
import { startConversation } from "../../app/models/chat.server";
import { pricesFor } from "../../app/models/credits.server";
import { brands } from "../../db/seed/brands";
import { createMember, sessionCookie } from "./fixtures";
import type { ChatRoomUnderTest } from "./worker-main";
import { walletBalance, walletLedger, walletSummary, type CreditReason } from "../../app/wallet/wallet.server";

/** A conversation's room as the worker tests run it: with the test-only hooks (tests/worker/worker-main.ts). */
export const roomStub = (e: Pick<Env, "CHAT_ROOM">, conversationId: string) =>
  e.CHAT_ROOM.get(e.CHAT_ROOM.idFromName(conversationId)) as unknown as DurableObjectStub<ChatRoomUnderTest>;

/** What a member of the seed's first brand in NL pays (what the routes and the socket pass on). */
export const PRICES = pricesFor(brands[0]!, "NL");

let n = 0;
export const cid = () => `client-${Date.now().toString(36)}-${++n}`.padEnd(8, "x");

/** Two members with a conversation started by the first. */
export async function pair(a: Parameters<typeof createMember>[0] = {}, b: Parameters<typeof createMember>[0] = {}) {
  const alice = await createMember({ paidUser: true, credits: 100, ...a });
  const bob = await createMember({ paidUser: true, credits: 100, ...b });
  const started = await startConversation(env.DB, alice.id, bob.id);
  if (!started.ok) throw new Error(`could not start: ${started.error}`);
  return { alice, bob, conversationId: started.id };
}

export type Socket = Awaited<ReturnType<typeof connect>>;

/** Opens the chat WebSocket as a browser would; `frames` collects what the object sends. */
export function connect(
  conversationId: string,
  cookie: string | null,
  o: { after?: number; origin?: string; host?: string; country?: string } = {},
) {
  return openSocket<ServerFrame>(`/ws/chat/${conversationId}?after=${o.after ?? 0}`, cookie, o);
}

/** Opens a WebSocket on `path` as a browser would; `frames` collects the JSON frames received. */
export async function openSocket<F>(
  path: string,
  cookie: string | null,
  o: { origin?: string; host?: string; country?: string } = {},
) {
  const host = o.host ?? "localhost";
  const headers: Record<string, string> = { Upgrade: "websocket", Host: host };
  if (cookie) headers.Cookie = cookie;
  if (o.origin) headers.Origin = o.origin;
  const res = await SELF.fetch(`http://${host}${path}`, {
    headers,
    cf: o.country ? { country: o.country } : undefined,
  } as RequestInit);
  const ws = res.webSocket;
  if (res.status !== 101 || !ws)
    return { status: res.status, ws: null, frames: [] as F[], next: null, until: null, closed: null };
  const frames: F[] = [];
  let wake: (() => void) | null = null;
  let closeCode: number | null = null;
  const closed = new Promise<number>((resolve) => ws.addEventListener("close", (e) => resolve((closeCode = e.code))));
  ws.accept();
  ws.addEventListener("message", (e) => {
    frames.push(JSON.parse(String(e.data)));
    wake?.();
  });
  /** Resolves with the first frame after index `from` matching `pred`. */
  async function next<T extends F>(pred: (f: F) => f is T, from = 0): Promise<T> {
    for (;;) {
      const hit = frames.slice(from).find(pred);
      if (hit) return hit;
      if (closeCode !== null) throw new Error(`socket closed (${closeCode})`);
      await new Promise<void>((r) => (wake = r));
    }
  }
  /** Resolves once `cond` holds for the frames received so far. */
  async function until(cond: (frames: F[]) => boolean): Promise<void> {
    while (!cond(frames)) {
      if (closeCode !== null) throw new Error(`socket closed (${closeCode})`);
      await new Promise<void>((r) => (wake = r));
    }
  }
  return { status: res.status, ws, frames, next, until, closed };
}

export const is =
  <K extends ServerFrame["type"]>(type: K) =>
  (f: ServerFrame): f is Extract<ServerFrame, { type: K }> =>
    f.type === type;

/**
 * Evicts a Durable Object as hibernation would: afterwards it is a new instance (in-memory state
 * gone) that still holds `sockets` hibernated WebSockets.
 */
export async function evictKeepingSockets(stub: DurableObjectStub, sockets: number) {
  await runInDurableObject(stub, async (obj: object, state) => {
    expect(state.getWebSockets()).toHaveLength(sockets);
    (obj as { marker?: number }).marker = 1;
  });
  await evictDurableObject(stub);
  await runInDurableObject(stub, async (obj: object, state) => {
    expect((obj as { marker?: number }).marker).toBeUndefined();
    expect(state.getWebSockets()).toHaveLength(sockets);
  });
}

export async function cookieOf(id: string) {
  return sessionCookie(id);
}

export async function count(sql: string, ...params: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Reads a conversation's messages where they live now, its object's own SQLite (decision 190): what
 * `SELECT ... FROM messages WHERE conversation_id = ?` read from D1 before. `where` and `params`
 * filter the room's `messages` table (columns seq, sender_id, client_id, kind, body, gift_id,
 * credits_charged, held, created_at).
 */
export async function roomRows<T = Record<string, unknown>>(
  conversationId: string,
  where = "1",
  ...params: (string | number | null)[]
): Promise<T[]> {
  // Through a send-free RPC first, so the object has opened (moved in what D1 held) before it is read.
  await roomStub(env, conversationId).history(conversationId, "", 0);
  return runInDurableObject(roomStub(env, conversationId), async (_obj, state) => {
    return state.storage.sql.exec(`SELECT * FROM messages WHERE ${where} ORDER BY seq`, ...params).toArray() as T[];
  });
}

/** How many messages of the conversation match `where` (see roomRows). */
export async function roomCount(conversationId: string, where = "1", ...params: (string | number | null)[]) {
  return (await roomRows(conversationId, where, ...params)).length;
}

/** The room's coalesced overview written to D1 now (what its alarm does within seconds). */
export async function flushed(...conversationIds: string[]) {
  for (const id of conversationIds) await roomStub(env, id).flushOverview();
}

/** A member's balance where it lives now, their wallet (decision 189), not D1's copy. */
export function walletCredits(userId: string): Promise<number> {
  return walletBalance(env, userId);
}

/** How many of the member's wallet ledger rows have one of `reasons` (and, if given, this delta). */
export async function ledgerCount(userId: string, reasons: CreditReason[], delta?: number): Promise<number> {
  const rows = await walletLedger(env, userId, { reasons, limit: 1000 });
  return rows.filter((r) => delta === undefined || r.delta === delta).length;
}

/** The wallet's balance, checked against its ledger it must equal (opening + the rows' sum). */
export async function explainedBalance(userId: string): Promise<number> {
  const s = await walletSummary(env, userId);
  expect(s.opening + s.sum).toBe(s.balance);
  return s.balance;
}

/** A conversation with `n` messages in D1, as the old send path stored them. */
export async function legacyConversation(n: number) {
  const { alice, bob, conversationId } = await pair();
  for (let i = 1; i <= n; i++)
    await env.DB.prepare(
      "INSERT INTO messages (conversation_id, sender_id, client_id, body, seq, created_at, credits_charged) VALUES (?1, ?2, ?3, ?4, ?5, unixepoch() - 100 + ?5, 1)",
    )
      .bind(conversationId, i % 2 ? alice.id : bob.id, `legacy-${i}-${conversationId}`, `old ${i}`, i)
      .run();
  await env.DB.prepare(
    "UPDATE conversations SET last_message_at = unixepoch(), last_message_preview = ?2 WHERE id = ?1",
  )
    .bind(conversationId, `old ${n}`)
    .run();
  return { alice, bob, conversationId };
}
