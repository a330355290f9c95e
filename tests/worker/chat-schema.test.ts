/**
 * Decision 230: the objects' SQLite has a schema version and ordered migrations, each run once at
 * construction; an object from before versions existed is recognised as version 1, its data kept.
 */
import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hubStub } from "../../app/chat/stubs";
import { ROOM_MIGRATIONS } from "../../app/chat/store";
import { migrateObjectSchema, schemaVersion, type ObjectMigration } from "../../app/lib/object-schema";
import { walletBalance } from "../../app/wallet/wallet.server";
import { cid, pair, PRICES, roomCount, roomStub } from "./chat-support";

const text = (conversationId: string, senderId: string, body: string) =>
  roomStub(env, conversationId).send({ conversationId, senderId, prices: PRICES, clientId: cid(), kind: "text", body });

const tables = (sql: SqlStorage) =>
  sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .toArray()
    .map((r) => r.name);

describe("the room's schema version", () => {
  it("a room created before versions (no version row, a table later releases added missing) becomes version 1 with its messages, counters and allowance kept", async () => {
    const { alice, bob, conversationId } = await pair();
    for (const body of ["one", "two"]) expect(await text(conversationId, alice.id, body)).toMatchObject({ ok: true });
    const room = roomStub(env, conversationId);
    const meta = (sql: SqlStorage) => sql.exec("SELECT k, v FROM meta ORDER BY k").toArray();
    const allowance = (sql: SqlStorage) => sql.exec("SELECT * FROM allowances ORDER BY user_id").toArray();
    // Everything pending written, and the room's alarm held an hour away: nothing writes during the test.
    await room.flushOverview();
    const before = await runInDurableObject(room, async (_room, state) => {
      await state.storage.setAlarm(Date.now() + 3_600_000);
      const sql = state.storage.sql;
      expect(schemaVersion(sql)).toBe(ROOM_MIGRATIONS.length);
      // As a room last started before versions and before pending notifies were kept in storage.
      sql.exec("DROP TABLE _schema_version");
      sql.exec("DROP TABLE pending_notify");
      return { meta: meta(sql), allowance: allowance(sql) };
    });
    expect(before.allowance).toHaveLength(1);
    await evictDurableObject(room);
    // The next instance migrates before anything reaches it (a read: nothing else writes meanwhile).
    expect(await room.history(conversationId, bob.id, 3650)).toMatchObject({ messages: [{}, {}] });
    await runInDurableObject(room, (_room, state) => {
      const sql = state.storage.sql;
      expect(schemaVersion(sql)).toBe(1);
      expect(tables(sql)).toContain("pending_notify");
      // Nothing the room held was rewritten: the baseline's statements only add what is missing.
      expect(meta(sql)).toEqual(before.meta);
      expect(allowance(sql)).toEqual(before.allowance);
    });
    expect(await text(conversationId, bob.id, "three")).toMatchObject({ ok: true });
    expect(await roomCount(conversationId)).toBe(3);
    // The overview still counts each message once (noted_seq kept, not reset to the newest).
    await roomStub(env, conversationId).flushOverview();
    expect((await roomStub(env, conversationId).stats()).messages).toBe(3);
  });

  it("migrations run in order, each once, each with its version in one transaction; a failing one leaves the version before it", async () => {
    const { conversationId } = await pair();
    const ran: string[] = [];
    const step = (name: string, ddl: string): ObjectMigration => ({
      name,
      up: (sql) => {
        ran.push(name);
        sql.exec(ddl);
      },
    });
    const later = [
      ...ROOM_MIGRATIONS,
      step("two", "CREATE TABLE test_two (x INTEGER)"),
      step("three", "ALTER TABLE test_two ADD COLUMN y INTEGER NOT NULL DEFAULT 0"),
    ];
    const broken: ObjectMigration = {
      name: "four",
      up: (sql) => {
        ran.push("four");
        sql.exec("CREATE TABLE test_four (x INTEGER)");
        throw new Error("a migration that fails half-way");
      },
    };
    await runInDurableObject(roomStub(env, conversationId), (_room, state) => {
      expect(migrateObjectSchema(state.storage, later)).toBe(3);
      expect(migrateObjectSchema(state.storage, later)).toBe(3);
      expect(ran).toEqual(["two", "three"]);
      expect(() => migrateObjectSchema(state.storage, [...later, broken])).toThrow("half-way");
      expect(schemaVersion(state.storage.sql)).toBe(3);
      // Its half is rolled back with it: the next start runs it again from the start.
      expect(tables(state.storage.sql)).not.toContain("test_four");
      // A version this code does not know (a release rolled back) is left as it is.
      expect(migrateObjectSchema(state.storage, ROOM_MIGRATIONS)).toBe(3);
    });
  });
});

describe("the member's object's schema version", () => {
  it("a wallet created before versions becomes version 1 with its balance and ledger kept", async () => {
    const { alice } = await pair({ credits: 40 });
    const balance = await walletBalance(env, alice.id);
    const hub = hubStub(env, alice.id);
    const rows = await runInDurableObject(hub, (_hub, state) => {
      const sql = state.storage.sql;
      expect(schemaVersion(sql)).toBe(1);
      sql.exec("DROP TABLE _schema_version");
      return sql.exec("SELECT COUNT(*) AS n FROM wallet_ledger").one().n;
    });
    await evictDurableObject(hub);
    expect(await walletBalance(env, alice.id)).toBe(balance);
    await runInDurableObject(hub, (_hub, state) => {
      expect(schemaVersion(state.storage.sql)).toBe(1);
      expect(state.storage.sql.exec("SELECT COUNT(*) AS n FROM wallet_ledger").one().n).toBe(rows);
    });
  });
});
