/**
 * Photo review (decision 175): the queue of photos waiting for a moderator, oldest first,
 * and the two answers. Approving is an audited change guarded on the photo still pending; rejecting
 * is a remove_photo decision on a case for the photo (moderation.server.ts decide), so the member
 * gets a statement of reasons and can appeal it like any other decision.
 */
import { and, asc, eq, gt, or, sql } from "drizzle-orm";
import { getDb, schema } from "../../../db/client";
import type { Env } from "~/lib/env";
import { nowS } from "~/lib/dates";
import { randomId } from "~/lib/password";
import { decide, severityOf, type TermsRule } from "../moderation.server";
import { photoKey } from "../photos.server";
import { auditAfterChange, type Actor } from "./audit.server";

export const PHOTO_PAGE = 24;

/** A keyset position in the queue: the last photo shown ("<created_at>.<id>"). */
export type QueueCursor = { createdAt: number; id: string };
export const cursorText = (c: QueueCursor) => `${c.createdAt}.${c.id}`;
export function parseCursor(text: string | null): QueueCursor | null {
  const m = /^(\d{1,12})\.([\w-]{1,64})$/.exec(text ?? "");
  return m ? { createdAt: Number(m[1]), id: m[2]! } : null;
}

/** One page of pending photos, oldest first (index photos_review), with the count of all pending. */
export async function pendingPhotos(d1: D1Database, after: QueueCursor | null) {
  const db = getDb(d1);
  const { photos, profiles, users, brands } = schema;
  const pending = eq(photos.review, "pending");
  const [rows, [total]] = await db.batch([
    db
      .select({
        id: photos.id,
        createdAt: photos.createdAt,
        isPrivate: photos.isPrivate,
        memberId: photos.userId,
        // Aliased: profiles.name and brands.name would share the column name "name" in D1's rows.
        name: sql<string>`${profiles.name}`.as("member_name"),
        brand: sql<string>`${brands.name}`.as("brand_name"),
        mode: brands.photoReview,
        isMain: sql<number>`${profiles.mainPhotoId} = ${photos.id}`,
      })
      .from(photos)
      .innerJoin(users, eq(users.id, photos.userId))
      .innerJoin(profiles, eq(profiles.userId, photos.userId))
      .innerJoin(brands, eq(brands.id, users.brandId))
      .where(
        after
          ? and(
              pending,
              or(
                gt(photos.createdAt, after.createdAt),
                and(eq(photos.createdAt, after.createdAt), gt(photos.id, after.id)),
              ),
            )
          : pending,
      )
      .orderBy(asc(photos.createdAt), asc(photos.id))
      .limit(PHOTO_PAGE + 1),
    db
      .select({ n: sql<number>`count(*)` })
      .from(photos)
      .where(pending),
  ]);
  const page = rows.slice(0, PHOTO_PAGE).map((r) => ({ ...r, isMain: !!r.isMain }));
  const last = page.at(-1);
  return { photos: page, pending: total?.n ?? 0, next: rows.length > PHOTO_PAGE && last ? cursorText(last) : null };
}

/**
 * The bytes of a photo for the console's own image route (moderators see what they decide on): a
 * photo in `photos` (pending ones included), or one held for its appeal window (decision 174), so the
 * second moderator of an appeal sees what was removed. The member route never serves either.
 */
export async function photoForReview(
  env: { DB: D1Database; PHOTOS: R2Bucket },
  photoId: string,
  variant: "thumb" | "full" | "blur",
) {
  const { photos, heldPhotos } = schema;
  const db = getDb(env.DB);
  const [[live], [held]] = await db.batch([
    db.select({ id: photos.id }).from(photos).where(eq(photos.id, photoId)),
    db.select({ id: heldPhotos.id }).from(heldPhotos).where(eq(heldPhotos.id, photoId)),
  ]);
  return live || held ? env.PHOTOS.get(photoKey(photoId, variant)) : null;
}

/**
 * Approves a pending photo: the review flips and the audit row is written in one batch, the audit
 * row only if the flip happened (a second click, or a photo approved or removed meanwhile, changes
 * and logs nothing).
 */
export async function approvePhoto(d1: D1Database, operator: Actor, photoId: string, at = nowS()): Promise<boolean> {
  const db = getDb(d1);
  const { photos } = schema;
  // Guarded chain: the audit row depends on this UPDATE's changes().
  const [flipped] = await db.batch([
    db
      .update(photos)
      .set({ review: "approved" })
      .where(and(eq(photos.id, photoId), eq(photos.review, "pending"))),
    auditAfterChange(
      db,
      operator,
      {
        action: "photo.approve",
        targetType: "photo",
        targetId: photoId,
        before: { review: "pending" },
        after: { review: "approved" },
      },
      at,
    ),
  ]);
  return (flipped?.meta.changes ?? 0) === 1;
}

type RejectEnv = Parameters<typeof decide>[0] & Pick<Env, "DB">;

/**
 * Rejects a pending photo: opens (or joins) the open case for the photo, then decides it with
 * remove_photo through decide(), which removes the photo and its files, writes the decision, the
 * audit row and mails the statement of reasons. Refused when the photo is no longer pending.
 */
export async function rejectPhoto(
  env: RejectEnv,
  operator: Actor,
  photoId: string,
  input: { rule: TermsRule; facts: string },
  o: { origin: (brandDomain: string) => string; now?: number },
): Promise<{ ok: true; decisionId: string } | { ok: false; error: "not_pending" | "closed" }> {
  const db = getDb(env.DB);
  const { photos, users, moderationCases: cases } = schema;
  const [photo] = await db
    .select({ memberId: photos.userId, brandId: users.brandId })
    .from(photos)
    .innerJoin(users, eq(users.id, photos.userId))
    .where(and(eq(photos.id, photoId), eq(photos.review, "pending")));
  if (!photo) return { ok: false, error: "not_pending" };
  const openCase = and(eq(cases.targetType, "photo"), eq(cases.targetId, photoId), eq(cases.status, "open"));
  // One open case per target (moderation_cases_open_target): a photo already reported joins its case,
  // so its reporters hear the outcome too.
  await db
    .insert(cases)
    .values({
      id: randomId(),
      brandId: photo.brandId,
      targetType: "photo",
      targetId: photoId,
      memberId: photo.memberId,
      severity: severityOf("other"),
      openedAt: o.now ?? nowS(),
    })
    .onConflictDoNothing();
  const [c] = await db.select({ id: cases.id }).from(cases).where(openCase);
  if (!c) return { ok: false, error: "closed" };
  const result = await decide(
    env,
    operator,
    c.id,
    { action: "remove_photo", rule: input.rule, facts: input.facts, days: null },
    o,
  );
  return result.ok ? result : { ok: false, error: "closed" };
}
