import { env } from "cloudflare:test";
import { beforeAll } from "vitest";
import { seedBrands } from "./fixtures";
import { MIGRATIONS_TABLE_DDL } from "../../db/seed/migrations-table";

type SchemaObject = { name: string; type: string; parents: string | null };

/** Tables and views in an order D1 can drop them: a table only once nothing left references it. */
function dropOrder(objects: SchemaObject[]): SchemaObject[] {
  const left = new Map(objects.map((o) => [o.name, o]));
  const order: SchemaObject[] = [];
  while (left.size) {
    const referenced = new Set(
      [...left.values()].flatMap((o) => (o.parents ?? "").split(",").filter((p) => p && p !== o.name)),
    );
    const free = [...left.values()].filter((o) => !referenced.has(o.name));
    // A cycle (none today) is dropped as it stands rather than looping.
    for (const o of free.length ? free : [...left.values()]) {
      order.push(o);
      left.delete(o.name);
    }
  }
  return order;
}

// Each test file starts with an empty D1. The worker suites' files share a runtime per pool worker
// (vitest.worker.config.ts, decision 244): what the file before left is dropped first. The migrations go
// in as one batch (one round trip instead of one per migration, as applyD1Migrations does), with their
// rows in d1_migrations as wrangler writes them.
beforeAll(async () => {
  const { DB, TEST_MIGRATIONS } = env;
  const { results } = await DB.prepare(
    `SELECT m.name, m.type, group_concat(f."table") AS parents FROM sqlite_master m
     LEFT JOIN pragma_foreign_key_list(m.name) f ON m.type = 'table'
     WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%'
     GROUP BY m.name`,
  ).all<SchemaObject>();
  if (results.length)
    await DB.batch(dropOrder(results).map((o) => DB.prepare(`DROP ${o.type.toUpperCase()} IF EXISTS "${o.name}"`)));
  await DB.batch([
    DB.prepare(MIGRATIONS_TABLE_DDL),
    ...TEST_MIGRATIONS.flatMap((m) => [
      ...m.queries.map((q) => DB.prepare(q)),
      DB.prepare("INSERT INTO d1_migrations (name) VALUES (?1)").bind(m.name),
    ]),
  ]);
  await seedBrands();
});
