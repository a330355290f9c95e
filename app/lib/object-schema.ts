/**
 * A Durable Object's SQLite schema, versioned (decision 230): the schema is an ordered list of
 * migrations, and the object's storage records how many of them it has run (`_schema_version`, one
 * row). At construction, inside `blockConcurrencyWhile`, the ones not yet run are run in order, each in
 * its own transaction with the version it reaches, so each runs once. Migration 1 of each object is the
 * schema as it stood before versions existed, written idempotently (`IF NOT EXISTS`, `ON CONFLICT DO
 * NOTHING`): an object from before (no version row) runs it unharmed, gains any table added since it
 * last started, and is version 1 from then on.
 *
 * A migration only adds (a table, a column with a default, an index, a backfill): a release rolled
 * back runs the code before it on the newer schema, and versions this code does not know are left as
 * they are.
 */

export type ObjectMigration = {
  /** What it changes, for the reader (and the error log). */
  name: string;
  up: (sql: SqlStorage) => void;
};

const VERSION_TABLE = "_schema_version";

/** The version the object's storage is at (0: never migrated, including an object from before versions). */
export function schemaVersion(sql: SqlStorage): number {
  sql.exec(
    `CREATE TABLE IF NOT EXISTS ${VERSION_TABLE} (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`,
  );
  const row = sql.exec<{ version: number }>(`SELECT version FROM ${VERSION_TABLE} WHERE id = 1`).toArray()[0];
  return row?.version ?? 0;
}

/** Runs the migrations the storage has not run yet, in order, each once; answers the version reached. */
export function migrateObjectSchema(storage: DurableObjectStorage, migrations: readonly ObjectMigration[]): number {
  const sql = storage.sql;
  let version = schemaVersion(sql);
  for (; version < migrations.length; version++) {
    const next = migrations[version]!;
    storage.transactionSync(() => {
      next.up(sql);
      sql.exec(
        `INSERT INTO ${VERSION_TABLE} (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version`,
        version + 1,
      );
    });
  }
  return version;
}
