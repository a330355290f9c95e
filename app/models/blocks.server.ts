/** Blocking (reporting: moderation.server.ts). A member blocked by another cannot see that member's profile or photos, nor contact them. */

export async function block(d1: D1Database, blockerId: string, blockedId: string) {
  if (blockerId === blockedId) return;
  await d1
    .prepare(
      `INSERT INTO blocks (blocker_id, blocked_id) SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM users WHERE id = ?2)
       ON CONFLICT DO NOTHING`,
    )
    .bind(blockerId, blockedId)
    .run();
}

export async function unblock(d1: D1Database, blockerId: string, blockedId: string) {
  await d1.prepare("DELETE FROM blocks WHERE blocker_id = ?1 AND blocked_id = ?2").bind(blockerId, blockedId).run();
}
