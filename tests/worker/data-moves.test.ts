/**
 * Decision 194: the one-time moves of D1's messages and credits into the objects run on their own
 * queue (data-moves), never on the notifications queue whose consumer delivers members' mail and push
 * (an e2e run saw a campaign mail wait over 120 s behind the move's pages).
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { migrateMessagesPage, startChatMigration } from "../../app/models/chat.server";
import { walletBalance } from "../../app/wallet/wallet.server";
import { migrateWalletsPage, startWalletMigration } from "../../app/wallet/migrate.server";
import { movesDone, OLD_TABLES_GUARD_SQL, orEmptyIfDropped } from "../../app/models/data-moves.server";
import { handleNotifyBatch } from "../../app/models/notify.server";
import { handleMovesBatch } from "../../app/models/moves.server";
import type { DataMove } from "../../app/models/moves";
import type { NotifyMessage } from "../../app/models/notify-events";
import { count, legacyConversation as legacy } from "./chat-support";
import { createMember } from "./fixtures";
import { signupForm, signUp } from "./accounts-support";

/** A queue that only records what was put on it. */
function recorder<T>() {
  const sent: T[] = [];
  const queue = {
    send: async (body: T) => void sent.push(body),
    sendBatch: async (rows: { body: T }[]) => void sent.push(...rows.map((r) => r.body)),
  };
  return { sent, queue: queue as unknown as Queue<T> };
}

const inD1 = (conversationId: string) =>
  count("SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?1", conversationId);

describe("the data moves have their own queue", () => {
  it("starting the moves puts their pages on the data-moves queue, nothing on the notifications or payments queue", async () => {
    await legacy(2);
    const m = await createMember({ credits: 0 });
    await env.DB.prepare("UPDATE users SET credits = 4, wallet_at = NULL WHERE id = ?1").bind(m.id).run();
    const notify = recorder<NotifyMessage>();
    const checks = recorder<unknown>();
    const moves = recorder<DataMove>();
    const fake = { ...env, NOTIFY_QUEUE: notify.queue, PAYMENT_CHECKS: checks.queue, MOVES_QUEUE: moves.queue };
    expect(await startChatMigration(fake)).toBe(true);
    expect(await startWalletMigration(fake)).toBe(true);
    expect(notify.sent).toEqual([]);
    expect(checks.sent).toEqual([]);
    expect(moves.sent.map((b) => b.kind).sort()).toEqual(["chat_migrate", "wallet-migrate"]);
  });

  it("the data-moves consumer moves a page and chains the next on its own queue until none is left", async () => {
    const conversations = [(await legacy(3)).conversationId, (await legacy(1)).conversationId];
    const m = await createMember({ credits: 0 });
    await env.DB.prepare("UPDATE users SET credits = 6, wallet_at = NULL WHERE id = ?1").bind(m.id).run();
    const moves = recorder<DataMove>();
    const fake = { ...env, MOVES_QUEUE: moves.queue };
    let pending: DataMove[] = [{ kind: "chat_migrate" }, { kind: "wallet-migrate" }];
    for (let round = 0; pending.length && round < 1000; round++) {
      const batch = createMessageBatch<DataMove>(
        "data-moves",
        pending.map((body, i) => ({ id: `${round}-${i}`, timestamp: new Date(), attempts: 1, body })),
      );
      await handleMovesBatch(batch, fake);
      const result = await getQueueResult(batch, createExecutionContext());
      expect(result.retryMessages).toEqual([]);
      pending = moves.sent.splice(0);
    }
    for (const c of conversations) expect(await inD1(c)).toBe(0);
    expect(await walletBalance(env, m.id)).toBe(6);
    expect(await count("SELECT COUNT(*) AS n FROM users WHERE id = ?1 AND wallet_at IS NOT NULL", m.id)).toBe(1);
    // Each chain's last page recorded its end: the next release's drop need not wait for the cron.
    expect((await movesDone(env.DB)).sort()).toEqual(["credit_ledger", "messages"]);
  });

  it("the notifications consumer does not carry a move: a page handed to it moves nothing", async () => {
    const c = (await legacy(2)).conversationId;
    const batch = createMessageBatch("notifications", [
      { id: "m", timestamp: new Date(), attempts: 1, body: { kind: "chat_migrate" } },
    ]) as unknown as MessageBatch<NotifyMessage>;
    await handleNotifyBatch(batch, env);
    expect((await getQueueResult(batch, createExecutionContext())).explicitAcks).toEqual([]);
    expect(await inD1(c)).toBe(2);
  });
});

describe("the end of the moves, for the next release's drop of the old tables", () => {
  const guard = () => env.DB.batch(OLD_TABLES_GUARD_SQL.map((q) => env.DB.prepare(q)));

  it("a move that finds nothing left records it; the drop's guard refuses until both did", async () => {
    // The tests share one database: the chains of the tests above recorded their end.
    await env.DB.prepare("DELETE FROM data_moves").run();
    await legacy(1);
    const m = await createMember({ credits: 0 });
    await env.DB.prepare("UPDATE users SET credits = 2, wallet_at = NULL WHERE id = ?1").bind(m.id).run();
    const moves = recorder<DataMove>();
    const fake = { ...env, MOVES_QUEUE: moves.queue };
    // Work left: nothing recorded, and the guard (the next release's migration) fails, so nothing is dropped.
    expect(await startChatMigration(fake)).toBe(true);
    expect(await startWalletMigration(fake)).toBe(true);
    expect(await movesDone(env.DB)).toEqual([]);
    await expect(guard()).rejects.toThrow(/CHECK/);
    // Half done: still refused.
    while ((await migrateMessagesPage(env, 50)).more);
    expect(await startChatMigration(fake)).toBe(false);
    expect(await movesDone(env.DB)).toEqual(["messages"]);
    await expect(guard()).rejects.toThrow(/CHECK/);
    // Both done: recorded once (a second run keeps the first time), and the guard lets the drop run.
    for (let after: string | null = ""; after !== null;) after = (await migrateWalletsPage(env, after)).next;
    expect(await startWalletMigration(fake)).toBe(false);
    expect(await startWalletMigration(fake)).toBe(false);
    expect((await movesDone(env.DB)).sort()).toEqual(["credit_ledger", "messages"]);
    await guard();
    expect(await walletBalance(env, m.id)).toBe(2);
  });

  it("a member who signs up now is born moved: nothing of theirs waits for the wallet move", async () => {
    const form = signupForm();
    expect((await signUp(form, { host: "de.localhost" })).status).toBe(302);
    expect(await count("SELECT COUNT(*) AS n FROM users WHERE email = ?1 AND wallet_at IS NOT NULL", form.email)).toBe(
      1,
    );
  });

  it("this release's reads of the old tables answer empty once the next release dropped them", async () => {
    expect(
      await orEmptyIfDropped(
        env.DB.prepare("SELECT * FROM no_such_table")
          .all()
          .then((r) => r.results),
      ),
    ).toEqual([]);
    await expect(
      orEmptyIfDropped(
        env.DB.prepare("SELECT nonsense(")
          .all()
          .then((r) => r.results),
      ),
    ).rejects.toThrow();
  });
});
