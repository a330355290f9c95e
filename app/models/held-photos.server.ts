/**
 * Photos removed by a decision that an appeal may still reverse (decision 174). The row moves from
 * `photos` to `held_photos` in the decision's batch, so no list, page, URL or variant knows the photo
 * any more (photoFor reads `photos` only); its R2 files stay until the appeal window ends. A reversal
 * moves it back (appeals.server.ts); the daily cron purges the rest. Kept apart from the moderation
 * model so the Cron Trigger pulls in no translations.
 */
import { and, eq, inArray, lte, notExists, sql, type SQL } from "drizzle-orm";
import { getDb, schema, type Db } from "../../db/client";
import type { Env } from "../lib/env";
import { deleteObjects } from "./photos.server";

/** An appeal is open for six calendar months after the decision (DSA Art. 20(1)). */
export const APPEAL_MONTHS = 6;

/** The end of the appeal window of a decision taken at `decidedAt` (unix seconds). */
export function appealDeadline(decidedAt: number): number {
  const d = new Date(decidedAt * 1000);
  d.setUTCMonth(d.getUTCMonth() + APPEAL_MONTHS);
  return Math.floor(d.getTime() / 1000);
}

/**
 * The statement that copies a photo into `held_photos` (with whether it was the main photo), for the
 * decision's batch, before the statement that deletes it from `photos`; runs only when `decided`.
 */
export function holdPhotoStatement(
  db: Db,
  o: { photoId: string; memberId: string; decisionId: string; until: number; decided: SQL },
) {
  const { photos, profiles, heldPhotos } = schema;
  // Every column of held_photos in table order.
  return db.insert(heldPhotos).select(
    sql`SELECT ${photos.id}, ${photos.userId}, ${o.decisionId}, ${photos.isPrivate}, ${photos.width}, ${photos.height},
      ${photos.createdAt}, coalesce((SELECT ${profiles.mainPhotoId} = ${photos.id} FROM ${profiles} WHERE ${profiles.userId} = ${o.memberId}), 0),
      ${o.until} FROM ${photos} WHERE ${photos.id} = ${o.photoId} AND ${photos.userId} = ${o.memberId} AND ${o.decided}`,
  );
}

/**
 * The daily purge: held photos whose appeal window has ended, and whose decision has no open appeal
 * (an appeal filed on the last day is decided first), lose their files and their row. Returns how many.
 */
export async function purgeHeldPhotos(env: Pick<Env, "DB" | "PHOTOS">, now: number): Promise<number> {
  const db = getDb(env.DB);
  const { heldPhotos, appeals } = schema;
  const due = await db
    .select({ id: heldPhotos.id })
    .from(heldPhotos)
    .where(
      and(
        lte(heldPhotos.heldUntil, now),
        notExists(
          db
            .select({ one: sql`1` })
            .from(appeals)
            .where(and(eq(appeals.decisionId, heldPhotos.decisionId), eq(appeals.status, "open"))),
        ),
      ),
    )
    .limit(500);
  if (due.length === 0) return 0;
  for (const { id } of due) await deleteObjects(env.PHOTOS, id);
  await db.delete(heldPhotos).where(
    inArray(
      heldPhotos.id,
      due.map((d) => d.id),
    ),
  );
  return due.length;
}
