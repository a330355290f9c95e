/**
 * The wallet's operations inside its member's MemberHub object (decision 189): the object holds a
 * Wallet and answers its RPCs by calling it (app/chat/hub.ts keeps only the notification channel).
 *
 * Every change is applied once per key, never below zero, its ledger row and the balance in one
 * synchronous transaction; the object is single-threaded, so racing spends serialise here instead of
 * in D1. The first touch imports the member's D1 state (users.credits and credit_ledger). D1's
 * users.credits is only a copy this object writes, never read to decide a spend. A conversation's room
 * may hold part of the balance as a spending allowance (decision 193).
 */
import { and, asc, eq } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { roomStub } from "../chat/stubs";
import type { Env } from "../lib/env";
import { logError } from "../lib/log.server";
import { orEmptyIfDropped } from "../models/data-moves.server";
import { WALLET_MIGRATIONS, WALLET_SCHEMA, WALLET_TABLES, type WalletState } from "./schema";
import { migrateObjectSchema } from "../lib/object-schema";
import type {
  CreditReason,
  ReserveResult,
  RoomCharge,
  WalletOp,
  WalletPage,
  WalletResult,
  WalletRow,
  WalletStatement,
  WalletSummary,
} from "./types";

export class Wallet {
  /** The D1 copy of the balance is written one at a time, each writing the then-current balance. */
  private copying: Promise<unknown> = Promise.resolve();
  private readonly storage: DurableObjectStorage;
  private readonly sql: SqlStorage;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
  ) {
    this.storage = ctx.storage;
    this.sql = ctx.storage.sql;
    // The wallet's tables, versioned (decision 230): each migration once, before anything reaches the object.
    void ctx.blockConcurrencyWhile(async () => {
      migrateObjectSchema(ctx.storage, WALLET_MIGRATIONS);
    });
  }

  /** Applies `op` once per key; a spend the balance does not cover changes nothing. */
  async apply(userId: string, op: WalletOp): Promise<WalletResult> {
    checkOp(op);
    await this.open(userId);
    // Credits held by rooms (allowances, decision 193) are called back first when the free part is short.
    const result = this.applyNow(op, false) ?? (await this.reclaim(userId), this.applyNow(op, true)!);
    if (result.ok && result.applied) await this.copyLater(userId, !COALESCED.has(op.reason));
    return result;
  }

  /** One op in one transaction; null: the free balance is short while rooms hold credits (reclaim, then final). */
  private applyNow(op: WalletOp, final: boolean): WalletResult | null {
    const sql = this.sql;
    return this.storage.transactionSync((): WalletResult | null => {
      const done = sql
        .exec<{ delta: number; cancelled: number }>("SELECT delta, cancelled FROM wallet_ops WHERE key = ?", op.key)
        .toArray()[0];
      const balance = this.balanceNow();
      if (done && !done.cancelled) return { ok: true, applied: false, delta: done.delta, balance };
      let delta = op.delta;
      // A spend takes only credits no room holds: what a room holds it may already have spent.
      const free = balance - this.heldNow();
      if (delta < 0 && free + delta < 0) {
        if (!final && free < balance) return null;
        if (!op.clamp) return { ok: false, error: "credits", balance };
        delta = -free;
      }
      const after = balance + delta;
      sql.exec("UPDATE wallet SET balance = ? WHERE id = 1", after);
      sql.exec(
        "INSERT INTO wallet_ops (key, delta, reason, cancelled) VALUES (?, ?, ?, 0) ON CONFLICT (key) DO UPDATE SET delta = excluded.delta, reason = excluded.reason, cancelled = 0",
        op.key,
        delta,
        op.reason,
      );
      this.ledgerRow(op.key, delta, op.reason, op.refId ?? null, op.at ?? nowSeconds(), after);
      return { ok: true, applied: true, delta, balance: after };
    });
  }

  /** Gives back what `key` took (or takes back what it gave), once; a no-op when it was never applied. */
  async cancel(userId: string, key: string, reason: CreditReason, at?: number): Promise<WalletResult> {
    await this.open(userId);
    const result =
      this.cancelNow(key, reason, at, false) ?? (await this.reclaim(userId), this.cancelNow(key, reason, at, true)!);
    if (result.ok && result.applied) await this.copyLater(userId, !COALESCED.has(reason));
    return result;
  }

  /** One cancel in one transaction; null: a clawback finds credits held by rooms (reclaim, then final). */
  private cancelNow(key: string, reason: CreditReason, at: number | undefined, final: boolean): WalletResult | null {
    const sql = this.sql;
    return this.storage.transactionSync((): WalletResult | null => {
      const done = sql
        .exec<{ delta: number; cancelled: number }>("SELECT delta, cancelled FROM wallet_ops WHERE key = ?", key)
        .toArray()[0];
      const balance = this.balanceNow();
      if (!done || done.cancelled) return { ok: true, applied: false, delta: 0, balance };
      const free = balance - this.heldNow();
      if (done.delta > 0 && free < done.delta && free < balance && !final) return null;
      // Taking back a grant the member already spent takes what is left (never below zero), as a clawback.
      const delta = done.delta > 0 ? -Math.min(done.delta, free) : -done.delta;
      const after = balance + delta;
      sql.exec("UPDATE wallet SET balance = ? WHERE id = 1", after);
      sql.exec("UPDATE wallet_ops SET cancelled = 1 WHERE key = ?", key);
      const refId =
        sql
          .exec<{ ref_id: string | null }>(
            "SELECT ref_id FROM wallet_ledger WHERE key = ? ORDER BY id DESC LIMIT 1",
            key,
          )
          .toArray()[0]?.ref_id ?? null;
      this.ledgerRow(`${key}:cancel`, delta, reason, refId, at ?? nowSeconds(), after);
      return { ok: true, applied: true, delta, balance: after };
    });
  }

  /** The member's balance (the truth; D1's users.credits is a copy). */
  async balance(userId: string): Promise<number> {
    await this.synced(userId);
    return this.balanceNow();
  }

  /** The op applied under `key`, if any. */
  async op(userId: string, key: string): Promise<{ delta: number; cancelled: boolean } | null> {
    await this.synced(userId);
    const row = this.sql
      .exec<{ delta: number; cancelled: number }>("SELECT delta, cancelled FROM wallet_ops WHERE key = ?", key)
      .toArray()[0];
    return row ? { delta: row.delta, cancelled: row.cancelled === 1 } : null;
  }

  /** A page of the ledger (newest first unless oldestFirst). */
  async ledger(userId: string, o: WalletPage = {}): Promise<WalletRow[]> {
    await this.synced(userId);
    return this.rowsNow(o);
  }

  /**
   * The balance and a page of the ledger read together, with no await between them: a charge that
   * lands meanwhile is in both or in neither (two calls could each see a different wallet).
   */
  async statement(userId: string, o: WalletPage = {}): Promise<WalletStatement> {
    await this.synced(userId);
    return { balance: this.balanceNow(), rows: this.rowsNow(o) };
  }

  private rowsNow(o: WalletPage): WalletRow[] {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (o.before) {
      where.push("id < ?");
      params.push(o.before);
    }
    if (o.refId !== undefined) {
      where.push("ref_id = ?");
      params.push(o.refId);
    }
    if (o.reasons?.length) {
      where.push(`reason IN (${o.reasons.map(() => "?").join(", ")})`);
      params.push(...o.reasons);
    }
    if (o.grantsOr) {
      where.push(`(delta > 0 OR reason IN (${o.grantsOr.map(() => "?").join(", ") || "NULL"}))`);
      params.push(...o.grantsOr);
    }
    const limit = Math.min(Math.max(1, Math.trunc(o.limit ?? 10_000)), 10_000);
    return this.sql
      .exec<{
        id: number;
        key: string;
        delta: number;
        reason: CreditReason;
        ref_id: string | null;
        created_at: number;
        balance: number;
      }>(
        `SELECT id, key, delta, reason, ref_id, created_at, balance FROM wallet_ledger${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY id ${o.oldestFirst ? "ASC" : "DESC"} LIMIT ${limit}`,
        ...params,
      )
      .toArray()
      .map((r) => ({
        id: r.id,
        key: r.key,
        delta: r.delta,
        reason: r.reason,
        refId: r.ref_id,
        createdAt: r.created_at,
        balance: r.balance,
      }));
  }

  /** The balance and how the ledger explains it (opening + sum = balance). */
  async summary(userId: string): Promise<WalletSummary> {
    await this.synced(userId);
    const state = this.state()!;
    const agg = this.sql
      .exec<{ sum: number; n: number }>("SELECT COALESCE(SUM(delta), 0) AS sum, COUNT(*) AS n FROM wallet_ledger")
      .one();
    return { balance: state.balance, opening: state.opening, sum: agg.sum, rows: agg.n, seededAt: state.seeded_at };
  }

  /** Writes the balance to D1's users.credits now (what the alarm does later); answers the balance. */
  async flush(userId: string): Promise<number> {
    await this.synced(userId);
    await this.copyLater(userId, true);
    return this.balanceNow();
  }

  /** The account is purged (docs/product/states.md §4): the wallet's storage goes with it. */
  async purge(): Promise<void> {
    this.sql.exec(WALLET_TABLES.map((t) => `DROP TABLE IF EXISTS ${t};`).join(" "));
    await this.storage.deleteAlarm();
    this.sql.exec(WALLET_SCHEMA);
  }

  /** The alarm writes the coalesced copy of the balance to D1 (and retries itself until it did). */
  async alarm(): Promise<void> {
    let state = this.state();
    if (!state) return;
    await this.syncRooms(state.user_id);
    state = this.state()!;
    if (state.copied !== state.balance) await this.copyNow(state.user_id);
  }

  // -------------------------------------------------------------------------------------------
  // Spending allowances (decision 193): a room holds a block of the member's credits and spends it
  // in its own SQLite, each message's charge in the message's transaction; the charges come here as
  // ledger rows by their keys. The balance counts held credits (they are the member's until spent);
  // what other spends may take is the free part, balance minus everything held.

  /** A room asks for `want` credits (at least `need`) to hold; once per key (a lost answer is asked again). */
  async reserve(userId: string, room: string, key: string, need: number, want: number): Promise<ReserveResult> {
    if (![need, want].every((n) => Number.isSafeInteger(n) && n >= 0) || !key || key.length > 200)
      throw new Error("wallet: bad reserve");
    await this.open(userId);
    const grant = (contended: boolean) =>
      this.storage.transactionSync((): ReserveResult | null => {
        const sql = this.sql;
        const done = sql
          .exec<{ amount: number }>("SELECT amount FROM wallet_hold_ops WHERE key = ? AND kind = 'grant'", key)
          .toArray()[0];
        if (done) return { ok: true, amount: done.amount };
        const free = this.balanceNow() - this.heldNow();
        if (free < need) return null;
        // Rooms competing for few credits get what the send needs, not a block another room then lacks.
        const amount = contended ? need : Math.min(Math.max(need, want), free);
        sql.exec("INSERT INTO wallet_hold_ops (key, room, kind, amount) VALUES (?, ?, 'grant', ?)", key, room, amount);
        this.hold(room, amount);
        return { ok: true, amount };
      });
    // Short: the other rooms give back what they hold, then once more.
    let r = grant(false);
    if (!r && (await this.reclaim(userId, room))) r = grant(true);
    return r ?? { ok: false, balance: this.balanceNow() };
  }

  /** A room's charges and returns, each applied once by its key (the room sends them until confirmed). */
  async settle(userId: string, room: string, rows: RoomCharge[]): Promise<void> {
    await this.open(userId);
    if (this.settleNow(room, rows)) await this.copyLater(userId, false);
  }

  /** Applies a room's rows in one transaction; answers whether the balance changed. */
  private settleNow(room: string, rows: RoomCharge[]): boolean {
    const sql = this.sql;
    return this.storage.transactionSync(() => {
      let changed = false;
      for (const r of rows) {
        if (!Number.isSafeInteger(r.credits) || r.credits < 0) throw new Error(`wallet: bad room row ${r.key}`);
        // Once per key, whatever the retries (the room resends until confirmed; readers pull the same rows).
        const fresh = sql.exec(
          "INSERT INTO wallet_hold_ops (key, room, kind, amount) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
          r.key,
          room,
          r.kind,
          -r.credits,
        ).rowsWritten;
        if (!fresh) continue;
        this.hold(room, -r.credits);
        if (r.kind === "return" || r.credits === 0) continue;
        // A send charged through the wallet before allowances existed is not charged twice.
        const paid = sql
          .exec<{ cancelled: number }>("SELECT cancelled FROM wallet_ops WHERE key = ?", r.key)
          .toArray()[0];
        if (paid && !paid.cancelled) continue;
        const after = this.balanceNow() - r.credits;
        sql.exec("UPDATE wallet SET balance = ? WHERE id = 1", after);
        sql.exec(
          "INSERT INTO wallet_ops (key, delta, reason, cancelled) VALUES (?, ?, ?, 0) ON CONFLICT (key) DO UPDATE SET delta = excluded.delta, reason = excluded.reason, cancelled = 0",
          r.key,
          -r.credits,
          r.reason ?? "message",
        );
        this.ledgerRow(r.key, -r.credits, r.reason ?? "message", r.refId, r.createdAt, after);
        changed = true;
      }
      return changed;
    });
  }

  /** Changes what `room` holds (the CHECK keeps it >= 0); a room holding nothing has no row. */
  private hold(room: string, delta: number) {
    const sql = this.sql;
    // An upsert would check the inserted row's CHECK first, so a decrease is a plain UPDATE.
    if (delta >= 0)
      sql.exec(
        "INSERT INTO wallet_holds (room, held) VALUES (?, ?) ON CONFLICT (room) DO UPDATE SET held = held + excluded.held",
        room,
        delta,
      );
    else if (!sql.exec("UPDATE wallet_holds SET held = held + ? WHERE room = ?", delta, room).rowsWritten)
      throw new Error(`wallet: ${room} holds nothing`);
    sql.exec("DELETE FROM wallet_holds WHERE room = ? AND held = 0", room);
  }

  private heldNow(): number {
    return this.sql.exec<{ n: number }>("SELECT COALESCE(SUM(held), 0) AS n FROM wallet_holds").one().n;
  }

  private holdingRooms(except?: string): string[] {
    return this.sql
      .exec<{ room: string }>("SELECT room FROM wallet_holds WHERE held > 0")
      .toArray()
      .map((r) => r.room)
      .filter((r) => r !== except);
  }

  /** The wallet, with what the rooms spent and have not reported yet: every reader sees each message's charge. */
  private async synced(userId: string) {
    await this.open(userId);
    await this.syncRooms(userId);
  }

  private async syncRooms(userId: string) {
    const rooms = this.holdingRooms();
    if (rooms.length === 0) return;
    let changed = false;
    await Promise.all(
      rooms.map(async (room) => {
        try {
          changed = this.settleNow(room, await roomStub(this.env, room).pendingCharges(room, userId)) || changed;
        } catch (e) {
          // The room's charges come by its own settle (alarm) or the next read.
          logError("wallet.sync_failed", e, { memberId: userId, conversationId: room });
        }
      }),
    );
    if (changed) await this.copyLater(userId, false);
  }

  /**
   * The rooms (but `except`) give back what they hold: a spend, a refund, a chargeback or a console
   * take needs credits a room holds. Answers whether any room was asked. A room that cannot be
   * reached keeps its allowance (the spend finds less free); a room whose conversation is gone
   * spends nothing more, so what it held is free again.
   */
  private async reclaim(userId: string, except?: string): Promise<boolean> {
    const rooms = this.holdingRooms(except);
    await Promise.all(
      rooms.map(async (room) => {
        try {
          const { gone } = await roomStub(this.env, room).returnAllowance(room, userId);
          if (gone)
            this.storage.transactionSync(() => {
              this.sql.exec("DELETE FROM wallet_holds WHERE room = ?", room);
            });
        } catch (e) {
          logError("wallet.reclaim_failed", e, { memberId: userId, conversationId: room });
        }
      }),
    );
    return rooms.length > 0;
  }

  private balanceNow(): number {
    return this.sql.exec<{ balance: number }>("SELECT balance FROM wallet WHERE id = 1").one().balance;
  }

  private state(): WalletState | undefined {
    return this.sql
      .exec<WalletState>("SELECT user_id, balance, opening, copied, closed, seeded_at FROM wallet WHERE id = 1")
      .toArray()[0];
  }

  private ledgerRow(
    key: string,
    delta: number,
    reason: CreditReason,
    refId: string | null,
    at: number,
    balance: number,
  ) {
    this.sql.exec(
      "INSERT INTO wallet_ledger (key, delta, reason, ref_id, created_at, balance) VALUES (?, ?, ?, ?, ?, ?)",
      key,
      delta,
      reason,
      refId,
      at,
      balance,
    );
  }

  /**
   * The wallet, imported from D1 on its first touch (users.credits and the member's credit_ledger
   * rows, each keyed d1:<id>). blockConcurrencyWhile: nothing else runs in the object meanwhile, so
   * the import happens once; a failed import leaves nothing behind and the next touch retries.
   */
  protected async open(userId: string): Promise<WalletState> {
    const have = this.state();
    if (have) {
      if (have.user_id !== userId) throw new Error("wallet: not this member's object");
      return have;
    }
    await this.ctx.blockConcurrencyWhile(async () => {
      if (this.state()) return;
      const db = getDb(this.env.DB);
      const [user, rows] = await Promise.all([
        db.select({ credits: schema.users.credits }).from(schema.users).where(eq(schema.users.id, userId)).get(),
        orEmptyIfDropped(
          db
            .select()
            .from(schema.creditLedger)
            .where(eq(schema.creditLedger.userId, userId))
            .orderBy(asc(schema.creditLedger.id)),
        ),
      ]);
      const balance = Math.max(0, user?.credits ?? 0);
      const sum = rows.reduce((a, r) => a + r.delta, 0);
      this.storage.transactionSync(() => {
        let running = balance - sum;
        for (const r of rows) {
          running += r.delta;
          this.sql.exec(
            "INSERT INTO wallet_ops (key, delta, reason) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING",
            `d1:${r.id}`,
            r.delta,
            r.reason,
          );
          this.ledgerRow(`d1:${r.id}`, r.delta, r.reason, r.refId, r.createdAt, running);
        }
        this.sql.exec(
          "INSERT INTO wallet (id, user_id, balance, opening, copied, closed, seeded_at) VALUES (1, ?, ?, ?, ?, ?, ?)",
          userId,
          balance,
          balance - sum,
          user?.credits ?? null,
          // Not closed for a member pending deletion: they may reactivate (docs/product/states.md §4); they cannot log in meanwhile.
          0,
          nowSeconds(),
        );
      });
    });
    return this.open(userId);
  }

  /** Copies the balance to D1 now (awaited) or by the alarm in a few seconds (coalesced). */
  private async copyLater(userId: string, now: boolean) {
    if (now) {
      try {
        await this.copyNow(userId);
        return;
      } catch (e) {
        // The change itself is applied; the alarm brings the copy up to date.
        logError("wallet.copy_failed", e, { memberId: userId });
      }
    }
    if ((await this.storage.getAlarm()) === null) await this.storage.setAlarm(Date.now() + COPY_DELAY_MS);
  }

  /** One copy at a time, each writing the balance current when it runs: the last write is the latest. */
  private copyNow(userId: string): Promise<void> {
    const run = this.copying.then(async () => {
      const balance = this.balanceNow();
      await getDb(this.env.DB)
        .update(schema.users)
        .set({ credits: balance })
        .where(and(eq(schema.users.id, userId)));
      this.sql.exec("UPDATE wallet SET copied = ? WHERE id = 1", balance);
    });
    this.copying = run.catch(() => undefined);
    return run;
  }
}

/** Spends of the chat (many, small) reach D1's copy coalesced, by the alarm; anything else at once. */
const COALESCED: ReadonlySet<CreditReason> = new Set(["message", "gift"]);
const COPY_DELAY_MS = 5_000;

const nowSeconds = () => Math.floor(Date.now() / 1000);

function checkOp(op: WalletOp) {
  if (typeof op.key !== "string" || !op.key || op.key.length > 200) throw new Error("wallet: bad key");
  if (!Number.isSafeInteger(op.delta)) throw new Error(`wallet: bad delta ${op.delta}`);
}
