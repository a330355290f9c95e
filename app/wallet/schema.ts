/**
 * The wallet's SQLite schema, in its member's MemberHub object (decision 189): created on every
 * start (CREATE … IF NOT EXISTS), dropped whole when the account is purged.
 *
 * wallet: one row, the balance and where it started (opening = the D1 balance at import minus the
 * imported ledger rows' sum, so opening + SUM(ledger.delta) = balance always); copied = what D1's
 * users.credits was last set to. wallet_ops: one row per key, the guard of idempotency (cancelled: the
 * key's effect was given back; applying it again charges anew). wallet_ledger: append-only.
 * wallet_holds: what each room holds as a spending allowance (decision 193); wallet_hold_ops: the
 * rooms' grants, charges and returns, once per key.
 */
import type { ObjectMigration } from "../lib/object-schema";
export const WALLET_SCHEMA = `
CREATE TABLE IF NOT EXISTS wallet (
  id INTEGER PRIMARY KEY CHECK (id = 1), user_id TEXT NOT NULL, balance INTEGER NOT NULL CHECK (balance >= 0),
  opening INTEGER NOT NULL, copied INTEGER, closed INTEGER NOT NULL DEFAULT 0, seeded_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS wallet_ops (
  key TEXT PRIMARY KEY, delta INTEGER NOT NULL, reason TEXT NOT NULL, cancelled INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS wallet_ledger (
  id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL, delta INTEGER NOT NULL, reason TEXT NOT NULL,
  ref_id TEXT, created_at INTEGER NOT NULL, balance INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS wallet_ledger_ref ON wallet_ledger (ref_id);
CREATE TABLE IF NOT EXISTS wallet_holds (room TEXT PRIMARY KEY, held INTEGER NOT NULL CHECK (held >= 0));
CREATE TABLE IF NOT EXISTS wallet_hold_ops (key TEXT PRIMARY KEY, room TEXT NOT NULL, kind TEXT NOT NULL, amount INTEGER NOT NULL);
`;

/** Every table of the wallet: the purge drops them all (then the schema is made again, empty). */
export const WALLET_TABLES = ["wallet_ledger", "wallet_ops", "wallet", "wallet_holds", "wallet_hold_ops"] as const;

export type WalletState = {
  user_id: string;
  balance: number;
  opening: number;
  copied: number | null;
  closed: number;
  seeded_at: number;
};

/** The wallet's storage versions (decision 230): migrations only add, each runs once, in order. */
export const WALLET_MIGRATIONS: readonly ObjectMigration[] = [
  { name: "baseline: the wallet", up: (sql) => sql.exec(WALLET_SCHEMA) },
];
