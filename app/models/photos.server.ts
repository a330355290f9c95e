/**
 * Photos: who may see which file, and the upload pipeline. Each photo is stored as three re-encoded
 * variants (full, thumb, blur) in R2 under its random id. Visitors and free members only ever
 * receive the blurred bytes of photos they are not entitled to, whatever variant they ask for.
 */
// Relative .ts imports: the Node seed script (db/seed/members.ts) imports photoKey from this module.
import { FREE_PHOTOS, PREMIUM_PHOTOS } from "../lib/constants.ts";
import { randomId } from "../lib/password.ts";
import { MAX_UPLOAD_BYTES } from "./profile-options.ts";
import { and, asc, count, desc, eq, isNull, or, sql } from "drizzle-orm";
import { getDb, schema, type Db } from "../../db/client.ts";
import type { ImagesService } from "../lib/env.ts";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

export type PhotoVariant = "full" | "thumb" | "blur";
export const PHOTO_VARIANTS: readonly PhotoVariant[] = ["full", "thumb", "blur"];

export function photoKey(photoId: string, variant: PhotoVariant): string {
  return `photos/${photoId}/${variant}.webp`;
}

/* ---------- photo review (decision 175) ---------- */

/**
 * SQL condition: the photo row aliased `a` may be shown to members other than its owner: approved,
 * or pending on a brand that reviews after showing (brands.photo_review = 'after'). Read live from
 * the owner's brand, so switching a brand's mode applies to its queued photos at once.
 */
export const shownToOthersSql = (a: string) =>
  `(${a}.review = 'approved' OR (${a}.review = 'pending' AND EXISTS (SELECT 1 FROM users ru JOIN brands rb ON rb.id = ru.brand_id
    WHERE ru.id = ${a}.user_id AND rb.photo_review = 'after')))`;
/** SQL: the photo id in column `col` if others may see it, else NULL (a member without a shown photo gets the placeholder). */
export const shownPhotoSql = (col: string) =>
  `(SELECT sp.id FROM photos sp WHERE sp.id = ${col} AND ${shownToOthersSql("sp")})`;
/** shownPhotoSql for drizzle's builder: the photo id in `col` if others may see it, else NULL. */
export const shownPhoto = (col: SQLiteColumn) =>
  sql<string | null>`(SELECT sp.id FROM photos sp WHERE sp.id = ${col} AND ${sql.raw(shownToOthersSql("sp"))})`;
/** SQL: the photo id in column `col` if a moderator approved it, else NULL. Landers and the visitor landing use only these. */
export const approvedPhotoSql = (col: string) =>
  `(SELECT ap.id FROM photos ap WHERE ap.id = ${col} AND ap.review = 'approved')`;

/** Whoever asks: null for a visitor. */
export type Viewer = { id: string; paidUser: boolean } | null;

export { MAX_UPLOAD_BYTES };
/**
 * Decoding costs ~4 bytes a pixel (plus the decoder's own copy) and a Worker has 128 MB, so larger
 * images are refused from their header, before decoding (a "pixel flood").
 */
export const MAX_PIXELS = 16_000_000;

export function photoLimit(paidUser: boolean) {
  return paidUser ? PREMIUM_PHOTOS : FREE_PHOTOS;
}

/** What the server decided a viewer gets of one photo. */
export type PhotoAccess = "none" | "blur" | "full";

export interface PhotoFacts {
  ownerId: string;
  ownerGone: boolean; // account deleted or profile disabled
  blockedByOwner: boolean; // the owner blocked this viewer
  isMain: boolean;
  isPrivate: boolean;
  /** The viewer paid photo_credits for this private photo (photo_unlocks). */
  unlocked?: boolean;
  /** Others may see it under review (shownToOthersSql): false while it waits for approval, or when rejected. */
  shown: boolean;
}

/**
 * The one rule for photos (docs/architecture/security.md §5): a member always sees their own; nobody sees a gone
 * member's or a blocker's photos; the main image is visible to all; every other photo, private ones
 * included, is full size for premium members and blurred for free members and visitors, except a
 * private photo the member unlocked with credits (offers.server.ts unlockPhoto), which is full size for them only.
 * A photo waiting for review (or rejected) is its owner's alone (decision 175): not even the blur.
 */
export function photoAccess(photo: PhotoFacts, viewer: Viewer): PhotoAccess {
  if (viewer && viewer.id === photo.ownerId) return "full";
  if (photo.ownerGone || photo.blockedByOwner || !photo.shown) return "none";
  if (photo.isMain && !photo.isPrivate) return "full";
  if (viewer && photo.isPrivate && photo.unlocked) return "full";
  return viewer?.paidUser ? "full" : "blur";
}

/** Which stored variant answers a request: the blurred one unless the viewer is entitled to more. */
export function variantToServe(access: PhotoAccess, asked: PhotoVariant): PhotoVariant | null {
  if (access === "none") return null;
  return access === "full" ? asked : "blur";
}

export async function photoFacts(d1: D1Database, photoId: string, viewer: Viewer): Promise<PhotoFacts | null> {
  const { photos: ph, users: u, profiles: p, blocks: b, photoUnlocks: pu } = schema;
  const viewerId = viewer?.id ?? "";
  const [r] = await getDb(d1)
    .select({
      id: ph.id,
      userId: ph.userId,
      isPrivate: ph.isPrivate,
      mainPhotoId: p.mainPhotoId,
      status: p.status,
      deletedAt: u.deletedAt,
      blocked: sql<number>`EXISTS (SELECT 1 FROM ${b} WHERE ${b.blockerId} = ${ph.userId} AND ${b.blockedId} = ${viewerId})`,
      unlocked: sql<number>`EXISTS (SELECT 1 FROM ${pu} WHERE ${pu.userId} = ${viewerId} AND ${pu.photoId} = ${ph.id})`,
      shown: sql<number>`${sql.raw(shownToOthersSql('"photos"'))}`,
    })
    .from(ph)
    .innerJoin(u, eq(u.id, ph.userId))
    .innerJoin(p, eq(p.userId, ph.userId))
    .where(eq(ph.id, photoId));
  if (!r) return null;
  return {
    ownerId: r.userId,
    ownerGone: r.deletedAt !== null || r.status !== "active",
    blockedByOwner: !!r.blocked,
    isMain: r.mainPhotoId === r.id,
    isPrivate: r.isPrivate,
    unlocked: !!r.unlocked,
    shown: !!r.shown,
  };
}

/** The bytes a viewer may receive for /photos/{id}/{variant}, or null (404). */
export async function photoFor(
  env: { DB: D1Database; PHOTOS: R2Bucket },
  photoId: string,
  asked: PhotoVariant,
  viewer: Viewer,
  /** Age assurance's "before_photos" (decision 185): the viewer has no proof yet, so only public main photos unblurred. */
  withoutAgeProof = false,
) {
  const facts = await photoFacts(env.DB, photoId, viewer);
  let access = facts && photoAccess(facts, viewer);
  if (
    facts &&
    access === "full" &&
    withoutAgeProof &&
    viewer?.id !== facts.ownerId &&
    (facts.isPrivate || !facts.isMain)
  ) {
    access = "blur";
  }
  const variant = access && variantToServe(access, asked);
  if (!variant) return null;
  const object = await env.PHOTOS.get(photoKey(photoId, variant));
  return object ? { object, variant } : null;
}

/* ---------- a member's own photos ---------- */

export interface OwnPhoto {
  id: string;
  isPrivate: boolean;
  isMain: boolean;
  createdAt: number;
  /** Waiting for a moderator; under "before" review others do not see it yet. */
  pending: boolean;
}

export async function listOwnPhotos(d1: D1Database, userId: string): Promise<OwnPhoto[]> {
  const { photos: ph, profiles: p } = schema;
  const results = await getDb(d1)
    .select({
      id: ph.id,
      isPrivate: ph.isPrivate,
      createdAt: ph.createdAt,
      review: ph.review,
      isMain: sql<number | null>`(${p.mainPhotoId} = ${ph.id})`,
    })
    .from(ph)
    .innerJoin(p, eq(p.userId, ph.userId))
    .where(eq(ph.userId, userId))
    .orderBy(asc(ph.createdAt), sql`${ph}.rowid`);
  return results.map((r) => ({
    id: r.id,
    isPrivate: r.isPrivate,
    isMain: !!r.isMain,
    createdAt: r.createdAt,
    pending: r.review === "pending",
  }));
}

/**
 * Another member's photos as a viewer sees them: main first, with the access decided per photo;
 * only those shown under review, unless the viewer is the owner (decision 175).
 */
export function photosOfQuery(db: Db, ownerId: string, viewerId = "") {
  const { photos: ph, profiles: p } = schema;
  const isMain = sql<number | null>`(${p.mainPhotoId} = ${ph.id})`.as("is_main");
  return db
    .select({
      id: ph.id,
      isPrivate: ph.isPrivate,
      isMain,
      unlocked:
        sql<number>`EXISTS (SELECT 1 FROM photo_unlocks pu WHERE pu.user_id = ${viewerId} AND pu.photo_id = ${ph.id})`.as(
          "unlocked",
        ),
    })
    .from(ph)
    .innerJoin(p, eq(p.userId, ph.userId))
    .where(and(eq(ph.userId, ownerId), or(eq(ph.userId, viewerId), sql.raw(shownToOthersSql('"photos"')))))
    .orderBy(desc(isMain), asc(ph.createdAt), sql`${ph}.rowid`);
}

export type PhotoRow = Awaited<ReturnType<typeof photosOfQuery>>[number];

export function photosAsSeen(ownerId: string, rows: PhotoRow[], viewer: Viewer) {
  return rows.map((r) => {
    const facts = {
      ownerId,
      ownerGone: false,
      blockedByOwner: false,
      isMain: !!r.isMain,
      isPrivate: r.isPrivate,
      unlocked: !!r.unlocked,
      shown: true, // the statement returns only shown photos to others
    };
    return {
      id: r.id,
      isPrivate: r.isPrivate,
      isMain: !!r.isMain,
      access: photoAccess(facts, viewer) as "blur" | "full",
    };
  });
}

/* ---------- upload checks: bytes, size and pixel dimensions, before any decoding ---------- */

export type ImageType = "jpeg" | "png" | "webp";
export type UploadError = "not_image" | "too_large" | "too_many_pixels" | "limit";

export function sniffImageType(b: Uint8Array): ImageType | null {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (b.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v)) return "png";
  if (b.length >= 12 && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 4) === "WEBP") return "webp";
  return null;
}

function ascii(b: Uint8Array, at: number, n: number) {
  return String.fromCharCode(...b.subarray(at, at + n));
}

/** Width and height from the file header (no decoding), or null when the header is unreadable. */
export function imageDimensions(b: Uint8Array, type: ImageType): { width: number; height: number } | null {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  try {
    if (type === "png") return { width: dv.getUint32(16), height: dv.getUint32(20) };
    if (type === "webp") {
      const chunk = ascii(b, 12, 4);
      if (chunk === "VP8 ") return { width: dv.getUint16(26, true) & 0x3fff, height: dv.getUint16(28, true) & 0x3fff };
      if (chunk === "VP8L") {
        const bits = dv.getUint32(21, true);
        return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
      }
      if (chunk === "VP8X") {
        const w = b[24]! | (b[25]! << 8) | (b[26]! << 16);
        const h = b[27]! | (b[28]! << 8) | (b[29]! << 16);
        return { width: w + 1, height: h + 1 };
      }
      return null;
    }
    // JPEG: walk the markers to the first start-of-frame (SOF0..SOF15 except DHT, JPG, DAC).
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1]!;
      if (marker === 0xff) {
        i += 1;
        continue;
      }
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        i += 2;
        continue;
      }
      const len = dv.getUint16(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: dv.getUint16(i + 7), height: dv.getUint16(i + 5) };
      }
      i += 2 + len;
    }
    return null;
  } catch {
    return null;
  }
}

/** Checks an upload's bytes, size and dimensions; decodes nothing. */
export function checkUpload(
  bytes: Uint8Array,
): { ok: true; type: ImageType; width: number; height: number } | { ok: false; error: UploadError } {
  if (bytes.byteLength > MAX_UPLOAD_BYTES) return { ok: false, error: "too_large" };
  const type = sniffImageType(bytes);
  if (!type) return { ok: false, error: "not_image" };
  const dims = imageDimensions(bytes, type);
  if (!dims || dims.width < 1 || dims.height < 1) return { ok: false, error: "not_image" };
  if (dims.width * dims.height > MAX_PIXELS) return { ok: false, error: "too_many_pixels" };
  return { ok: true, type, ...dims };
}

async function countPhotos(d1: D1Database, userId: string) {
  const [row] = await getDb(d1).select({ n: count() }).from(schema.photos).where(eq(schema.photos.userId, userId));
  return row?.n ?? 0;
}

/**
 * Stores an upload. The limit is checked again in the insert itself, so two uploads at once cannot
 * pass it; the first photo becomes the main image.
 */
export async function uploadPhoto(
  env: { DB: D1Database; PHOTOS: R2Bucket; IMAGES: ImagesService },
  member: { id: string; paidUser: boolean },
  bytes: Uint8Array,
): Promise<{ ok: true; id: string } | { ok: false; error: UploadError }> {
  const limit = photoLimit(member.paidUser);
  const checked = checkUpload(bytes);
  if (!checked.ok) return checked;
  if ((await countPhotos(env.DB, member.id)) >= limit) return { ok: false, error: "limit" };
  let variants;
  try {
    // Decoded and re-encoded (which drops EXIF and GPS) by the images Worker (decision 171).
    variants = await env.IMAGES.reencode(bytes);
  } catch {
    return { ok: false, error: "not_image" };
  }
  const id = randomId(18);
  const meta = { httpMetadata: { contentType: "image/jpeg" } };
  await Promise.all([
    env.PHOTOS.put(photoKey(id, "full"), variants.full, meta),
    env.PHOTOS.put(photoKey(id, "thumb"), variants.thumb, meta),
    env.PHOTOS.put(photoKey(id, "blur"), variants.blur, meta),
  ]);
  const db = getDb(env.DB);
  const { photos, profiles } = schema;
  const [insert] = await db.batch([
    // Guarded: the count is checked in the insert itself (id, user_id, is_private, width, height, created_at,
    // review). Every upload waits for review; the brand's mode decides whether others see it meanwhile.
    db.insert(photos)
      .select(sql`SELECT ${id}, ${member.id}, 0, ${variants.width}, ${variants.height}, unixepoch(), 'pending'
      WHERE (SELECT COUNT(*) FROM ${photos} WHERE ${photos.userId} = ${member.id}) < ${limit}`),
    db
      .update(profiles)
      .set({ mainPhotoId: id })
      .where(
        and(
          eq(profiles.userId, member.id),
          isNull(profiles.mainPhotoId),
          sql`EXISTS (SELECT 1 FROM ${photos} WHERE ${photos.id} = ${id})`,
        ),
      ),
  ]);
  if (!insert!.meta.changes) {
    await deleteObjects(env.PHOTOS, id);
    return { ok: false, error: "limit" };
  }
  return { ok: true, id };
}

export function deleteObjects(bucket: R2Bucket, photoId: string) {
  return bucket.delete(PHOTO_VARIANTS.map((v) => photoKey(photoId, v)));
}

/** Makes one of a member's own public photos the main image (a private photo becomes public). */
export async function setMainPhoto(d1: D1Database, userId: string, photoId: string) {
  const db = getDb(d1);
  const { photos, profiles } = schema;
  const mine = and(eq(photos.id, photoId), eq(photos.userId, userId));
  await db.batch([
    db.update(photos).set({ isPrivate: false }).where(mine),
    db
      .update(profiles)
      .set({ mainPhotoId: photoId })
      .where(and(eq(profiles.userId, userId), sql`EXISTS (SELECT 1 FROM ${photos} WHERE ${mine})`)),
  ]);
}

/** Marks a photo private or public; a private photo cannot stay the main image. */
export async function setPhotoPrivate(d1: D1Database, userId: string, photoId: string, isPrivate: boolean) {
  const db = getDb(d1);
  const { photos, profiles } = schema;
  const photo = db
    .update(photos)
    .set({ isPrivate })
    .where(and(eq(photos.id, photoId), eq(photos.userId, userId)));
  if (!isPrivate) {
    await photo;
    return;
  }
  // A private photo cannot stay the main image.
  await db.batch([
    photo,
    db
      .update(profiles)
      .set({ mainPhotoId: null })
      .where(and(eq(profiles.userId, userId), eq(profiles.mainPhotoId, photoId))),
  ]);
}

/** Deletes a photo (row and files); if it was the main image, the oldest public photo takes over. */
export async function deletePhoto(env: { DB: D1Database; PHOTOS: R2Bucket }, userId: string, photoId: string) {
  const db = getDb(env.DB);
  const { photos, profiles } = schema;
  const [del] = await db.batch([
    db.delete(photos).where(and(eq(photos.id, photoId), eq(photos.userId, userId))),
    db
      .update(profiles)
      .set({
        mainPhotoId: sql`(SELECT ${photos.id} FROM ${photos} WHERE ${photos.userId} = ${userId} AND ${photos.isPrivate} = 0
          ORDER BY ${photos.createdAt}, ${photos}.rowid LIMIT 1)`,
      })
      .where(and(eq(profiles.userId, userId), eq(profiles.mainPhotoId, photoId))),
  ]);
  if (del!.meta.changes) await deleteObjects(env.PHOTOS, photoId);
  return del!.meta.changes > 0;
}
