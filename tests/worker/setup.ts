import { env } from "cloudflare:test";
import { beforeAll } from "vitest";
import { seedBrands } from "./fixtures";
import { MIGRATIONS_TABLE_DDL } from "../../db/seed/migrations-table";

// Each test file starts with an empty D1. The worker suites' files share a runtime per pool worker
// (vitest.worker.config.ts, decision 244): what the file before left is dropped, children before parents. The migrations go in
// as one batch (one round trip instead of one per migration, as applyD1Migrations does), with their rows
// in d1_migrations as wrangler writes them.
beforeAll(async () => {
  const { DB, TEST_MIGRATIONS } = env;
  const rows = (
    await DB.prepare(
      `SELECT m.name, m.type, group_concat(f."table") AS parents FROM sqlite_master m
       LEFT JOIN pragma_foreign_key_list(m.name) f ON m.type = 'table'
       WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%'
       GROUP BY m.name`,
    ).all<{ name: string; type: string; parents: string | null }>()
  ).results;
  const left = new Map(rows.map((r) => [r.name, r]));
  const order: { name: string; type: string }[] = [];
  while (left.size) {
    const referenced = new Set(
      [...left.values()].flatMap((r) => (r.parents ?? "").split(",").filter((p) => p && p !== r.name)),
    );
    const leaves = [...left.values()].filter((r) => !referenced.has(r.name));
    for (const r of leaves.length ? leaves : [...left.values()]) {
      order.push(r);
      left.delete(r.name);
    }
  }
  if (order.length) await DB.batch(order.map((t) => DB.prepare(`DROP ${t.type.toUpperCase()} IF EXISTS "${t.name}"`)));
  await DB.batch([
    DB.prepare(MIGRATIONS_TABLE_DDL),
    ...TEST_MIGRATIONS.flatMap((m) => [
      ...m.queries.map((q) => DB.prepare(q)),
      DB.prepare("INSERT INTO d1_migrations (name) VALUES (?1)").bind(m.name),
    ]),
  ]);
  await seedBrands();
});
