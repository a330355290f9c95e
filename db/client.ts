import { drizzle } from "drizzle-orm/d1";
// With its extension: the Node seed script reaches this file through app/models/photos.server.ts.
import * as schema from "./schema.ts";

/** A drizzle client over the D1 binding; cheap to create, so one per request. */
export function getDb(d1: D1Database) {
  return drizzle(d1, { schema });
}
export type Db = ReturnType<typeof getDb>;

/**
 * A builder statement as a D1 statement, for a batch that also holds raw statements of a model not yet
 * on the builder (credits.server.ts, rewritten by the chat-at-scale work); everywhere else use db.batch.
 */
export function toStatement(
  d1: D1Database,
  query: { toSQL(): { sql: string; params: unknown[] } },
): D1PreparedStatement {
  const { sql, params } = query.toSQL();
  return d1.prepare(sql).bind(...params);
}
export { schema };
