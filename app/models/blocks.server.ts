/** Blocking (reporting: moderation.server.ts). A member blocked by another cannot see that member's profile or photos, nor contact them. */
import { and, eq, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";

export async function block(d1: D1Database, blockerId: string, blockedId: string) {
  if (blockerId === blockedId) return;
  const { blocks, users } = schema;
  // Only a member who exists can be blocked (the id comes from the request).
  await getDb(d1)
    .insert(blocks)
    .select(
      sql`SELECT ${blockerId}, ${blockedId}, unixepoch() WHERE EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${blockedId})`,
    )
    .onConflictDoNothing();
}

export async function unblock(d1: D1Database, blockerId: string, blockedId: string) {
  const { blocks } = schema;
  await getDb(d1)
    .delete(blocks)
    .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)));
}
