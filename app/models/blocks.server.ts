/** Blocking and reporting. A member blocked by another cannot see that member's profile or photos, nor contact them. */
export const REPORT_REASONS = ["fake", "spam", "offensive", "underage", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

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

/** Stores a report for moderation. */
export async function report(d1: D1Database, reporterId: string, reportedId: string, reason: ReportReason, remarks: string) {
  if (reporterId === reportedId) return false;
  const r = await d1
    .prepare(
      `INSERT INTO reports (reporter_id, reported_id, reason, remarks) SELECT ?1, ?2, ?3, ?4
       WHERE EXISTS (SELECT 1 FROM users WHERE id = ?2)`,
    )
    .bind(reporterId, reportedId, reason, remarks.slice(0, 1000))
    .run();
  return r.meta.changes > 0;
}
