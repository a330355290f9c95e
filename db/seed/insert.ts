/**
 * Bulk inserts for the seed. D1 binds at most 100 parameters per statement, so rows travel as one
 * JSON parameter that SQLite unpacks with json_each: a few statements instead of thousands.
 */
type Value = string | number | boolean | null | undefined;

const sqlValue = (v: Value) => (typeof v === "boolean" ? (v ? 1 : 0) : (v ?? null));

export function insertStatements(
  DB: D1Database,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly Value[])[],
  rowsPerStatement = 500,
): D1PreparedStatement[] {
  const select = columns.map((_, i) => `value->>${i}`).join(", ");
  const sql = `INSERT INTO ${table} (${columns.join(", ")}) SELECT ${select} FROM json_each(?1)`;
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += rowsPerStatement) {
    const chunk = rows.slice(i, i + rowsPerStatement).map((row) => row.map(sqlValue));
    statements.push(DB.prepare(sql).bind(JSON.stringify(chunk)));
  }
  return statements;
}

/** Runs `work` over `items` with at most `concurrency` in flight (R2 puts through the proxy). */
export async function inParallel<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** Empties an R2 prefix (a reseed must not leave the previous run's photos behind). */
export async function clearBucket(bucket: R2Bucket, prefix: string): Promise<number> {
  let removed = 0;
  for (;;) {
    const listed = await bucket.list({ prefix, limit: 1000 });
    if (listed.objects.length === 0) return removed;
    await bucket.delete(listed.objects.map((o) => o.key));
    removed += listed.objects.length;
    if (!listed.truncated) return removed;
  }
}
