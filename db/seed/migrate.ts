/**
 * Applies the pending migrations to a local D1 as `wrangler d1 migrations apply --local` does (the same
 * files in name order, wrangler's own statement splitter, one batch per migration with its row in
 * `d1_migrations`), through a binding the caller already has open. Wrangler starts a fresh runtime for
 * every migration it applies (45 of them: minutes on a busy machine); db/seed.ts --migrate applies
 * them all through the one runtime its seed uses.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { unstable_splitSqlQuery as splitSqlQuery } from "wrangler";
import { MIGRATIONS_TABLE_DDL } from "./migrations-table.ts";

const MIGRATIONS = path.join(import.meta.dirname, "../../migrations");

/** The names of the migrations it applied, in order. */
export async function applyMigrations(DB: D1Database, dir = MIGRATIONS): Promise<string[]> {
  await DB.prepare(MIGRATIONS_TABLE_DDL).run();
  const applied = new Set(
    (await DB.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()).results.map((r) => r.name),
  );
  const pending = readdirSync(dir)
    .filter((f) => f.endsWith(".sql") && !applied.has(f))
    .sort();
  for (const name of pending) {
    const queries = splitSqlQuery(readFileSync(path.join(dir, name), "utf8"));
    await DB.batch([
      ...queries.map((q) => DB.prepare(q)),
      DB.prepare("INSERT INTO d1_migrations (name) VALUES (?1)").bind(name),
    ]);
  }
  return pending;
}
