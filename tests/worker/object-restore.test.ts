/**
 * The restore drill's local half (docs/operations/recovery.md): a member's wallet and a
 * conversation's messages live only in their objects' SQLite (decisions 189, 190), so everything an
 * object answers must come back from its storage alone. Here each object's tables are exported, the
 * storage is deleted, and the rows are written back into the fresh instance: balance, ledger and
 * messages are the same, and the restored objects go on working. Production restores with the
 * platform's point-in-time recovery, which workerd does not implement locally; this is what can be
 * tested here.
 */
import { env, evictDurableObject, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hubStub } from "../../app/chat/stubs";
import { applyCredits, walletLedger } from "../../app/wallet/wallet.server";
import { cid, pair, PRICES, roomRows, roomStub, walletCredits } from "./chat-support";

type Table = { name: string; sql: string; rows: Record<string, unknown>[] };

/** Every table of an object's SQLite with its rows (the platform's own tables excepted). */
async function exportStorage(stub: DurableObjectStub): Promise<Table[]> {
  return runInDurableObject(stub, async (_obj, state) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec<{ name: string; sql: string }>(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
      )
      .toArray();
    return tables.map((t) => ({ ...t, rows: sql.exec(`SELECT * FROM "${t.name}"`).toArray() }));
  });
}

/** Deletes the object's storage and evicts it: the next call meets a new instance on empty storage. */
async function wipe(stub: DurableObjectStub) {
  await runInDurableObject(stub, (_obj, state) => state.storage.deleteAll());
  await evictDurableObject(stub);
}

/** Writes exported tables into the object (replacing what its constructor created), then evicts it. */
async function importStorage(stub: DurableObjectStub, tables: Table[]) {
  await runInDurableObject(stub, async (_obj, state) => {
    const sql = state.storage.sql;
    state.storage.transactionSync(() => {
      for (const t of tables) {
        sql.exec(t.sql.replace(/^CREATE TABLE (?!IF NOT EXISTS)/i, "CREATE TABLE IF NOT EXISTS "));
        sql.exec(`DELETE FROM "${t.name}"`);
        for (const row of t.rows) {
          const cols = Object.keys(row);
          sql.exec(
            `INSERT INTO "${t.name}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`,
            ...cols.map((c) => row[c] as SqlStorageValue),
          );
        }
      }
    });
  });
  await evictDurableObject(stub);
}

const send = (conversationId: string, senderId: string, body: string) =>
  roomStub(env, conversationId).send({ conversationId, senderId, prices: PRICES, clientId: cid(), kind: "text", body });

describe("an object's storage restored into a fresh object", () => {
  it("gives the same balance, ledger and messages, and the restored objects go on working", async () => {
    const { alice, bob, conversationId } = await pair({ credits: 40 });
    const grant = { key: `grant:restore-drill:${alice.id}`, delta: 5, reason: "adjustment" as const };
    expect(await applyCredits(env, alice.id, grant)).toMatchObject({ ok: true, applied: true });
    for (const body of ["hello", "are you there?", "see you"])
      expect(await send(conversationId, alice.id, body)).toMatchObject({ ok: true });
    expect(await send(conversationId, bob.id, "hi!")).toMatchObject({ ok: true });
    await roomStub(env, conversationId).settled();

    const balance = await walletCredits(alice.id);
    const ledger = await walletLedger(env, alice.id, { oldestFirst: true });
    const messages = await roomRows(conversationId);
    expect(balance).toBe(45 - 3 * PRICES.message);
    expect(messages.map((m) => m.body)).toEqual(["hello", "are you there?", "see you", "hi!"]);

    const hub = hubStub(env, alice.id);
    const room = roomStub(env, conversationId);
    const [hubTables, roomTables] = [await exportStorage(hub), await exportStorage(room)];
    await wipe(hub);
    await wipe(room);
    // Wiped, the room has nothing: what it answered was in its storage and nowhere else.
    expect(await roomRows(conversationId)).toEqual([]);
    await wipe(room);

    await importStorage(hub, hubTables);
    await importStorage(room, roomTables);
    expect(await walletCredits(alice.id)).toBe(balance);
    expect(await walletLedger(env, alice.id, { oldestFirst: true })).toEqual(ledger);
    expect(await roomRows(conversationId)).toEqual(messages);
    // Each change still counts once: the grant's key is known to the restored wallet.
    expect(await applyCredits(env, alice.id, grant)).toMatchObject({ ok: true, applied: false, balance });

    // The restored room numbers the next message after the last one and charges it from the wallet.
    const next = await send(conversationId, alice.id, "back again");
    expect(next).toMatchObject({ ok: true, message: { id: messages.length + 1 } });
    expect(await walletCredits(alice.id)).toBe(balance - PRICES.message);
  });
});

describe("the operator's restore call (POST /api/admin/restore)", () => {
  const restore = (body: unknown, token: string | null = env.ADMIN_TOKEN!) =>
    SELF.fetch("http://localhost/api/admin/restore", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const recently = () => new Date(Date.now() - 60_000).toISOString();

  it("refuses without the operator's token, and malformed or out-of-range requests, changing nothing", async () => {
    const { alice } = await pair({ credits: 7 });
    const good = { object: "member", id: alice.id, at: recently() };
    expect((await restore(good, null)).status).toBe(401);
    expect((await restore(good, "x".repeat(40))).status).toBe(401);
    for (const bad of [
      {},
      { ...good, object: "brand" },
      { ...good, id: "../other" },
      { ...good, at: "yesterday" },
      { ...good, at: "2999-01-01T00:00:00Z" },
      { ...good, at: new Date(Date.now() - 31 * 86_400_000).toISOString() },
      { ...good, bookmark: "abc" },
      { object: "member", id: alice.id },
    ]) {
      const res = await restore(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(await res.json()).toMatchObject({ error: "invalid" });
    }
    expect(await walletCredits(alice.id)).toBe(7);
  });

  it("reaches the object, which answers that local workerd keeps no history (501), and the object goes on working", async () => {
    const { alice, conversationId } = await pair({ credits: 7 });
    for (const body of [
      { object: "member", id: alice.id, at: recently() },
      { object: "conversation", id: conversationId, at: recently() },
      { object: "member", id: alice.id, bookmark: "0000000000000000000000000000000000000000" },
    ]) {
      const res = await restore(body);
      expect(res.status, JSON.stringify(body)).toBe(501);
      expect(await res.json()).toMatchObject({ error: "restore_unsupported" });
    }
    expect(await send(conversationId, alice.id, "still here")).toMatchObject({ ok: true });
    expect(await walletCredits(alice.id)).toBe(7 - PRICES.message);
  });
});
