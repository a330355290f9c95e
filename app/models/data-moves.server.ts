/**
 * Completion of the one-time moves into the objects (decision 194): recorded in D1 `data_moves` when a
 * move finds nothing left, so the next release's migration can drop D1's `messages` and `credit_ledger`
 * only after both have finished (it checks these rows and refuses otherwise).
 */
import { getDb, schema } from "../../db/client";
import { nowS } from "~/lib/dates";

export type MoveName = (typeof schema.dataMoves.$inferSelect)["name"];

/** Records that a move has nothing left (once; later calls keep the first time). */
export async function recordMoveDone(db: D1Database, name: MoveName) {
  await getDb(db).insert(schema.dataMoves).values({ name, doneAt: nowS() }).onConflictDoNothing();
}

/** The moves recorded as finished. */
export async function movesDone(db: D1Database): Promise<MoveName[]> {
  return (await getDb(db).select({ name: schema.dataMoves.name }).from(schema.dataMoves)).map((r) => r.name);
}

/**
 * A read of an old table that the next release drops: empty once it is gone, so this release's code keeps
 * working in the minute between that release's migration and its deploy.
 */
export async function orEmptyIfDropped<T>(read: PromiseLike<T[]>): Promise<T[]> {
  try {
    return await read;
  } catch (e) {
    if (/no such table/i.test(String(e))) return [];
    throw e;
  }
}

/**
 * The first statements of the next release's migration that drops `messages` and `credit_ledger` (a
 * custom migration before the generated DROP TABLEs): the INSERT fails its CHECK, and with it the
 * migration and the deploy, unless both moves recorded their end and nothing is left to move.
 */
export const OLD_TABLES_GUARD_SQL = [
  "CREATE TABLE `_moves_guard` (`ok` integer NOT NULL CHECK (`ok` = 1))",
  `INSERT INTO \`_moves_guard\` SELECT (SELECT COUNT(*) FROM data_moves WHERE name IN ('messages', 'credit_ledger')) = 2
     AND NOT EXISTS (SELECT 1 FROM messages) AND NOT EXISTS (SELECT 1 FROM users WHERE wallet_at IS NULL)`,
  "DROP TABLE `_moves_guard`",
];
