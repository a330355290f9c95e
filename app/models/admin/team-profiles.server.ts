/**
 * A brand's team-run profiles in the console (decision 201): the chat team and the admin create, edit
 * and retire them. A team-run profile is an account nobody can log in to (no usable password, an
 * address no mail reaches), always marked `fictional` (nothing here can unset it), placed at its town's
 * coordinates like a member (never finer), with the languages it answers in and persona notes. Texts
 * that promise a meeting or a real relationship are saved with a warning (the guard rails' lists).
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb, schema } from "../../../db/client";
import { LANGUAGES } from "~/lib/constants";
import { ageOn, isRealDate, nowS } from "~/lib/dates";
import { randomId } from "~/lib/password";
import { normaliseText } from "~/lib/text";
import { cityPosition } from "../geo.server";
import { deletePhoto, listOwnPhotos, uploadPhoto, type UploadError } from "../photos.server";
import type { Env } from "~/lib/env";
import { brandPhrases, guardReasons, type GuardReason } from "../team-guard";
import { auditStatement } from "./audit.server";
import { brandScope, inBrandScope, type Operator } from "./operators.server";

export const TeamProfileForm = z.object({
  brandId: z.coerce.number().int().positive(),
  name: z.string().trim().min(2).max(40),
  gender: z.enum(["male", "female"]),
  dateOfBirth: z.string().refine(isRealDate),
  country: z.string().regex(/^[A-Z]{2}$/),
  city: z.string().trim().min(1).max(80),
  aboutMe: z.string().max(2000).default(""),
  languages: z.array(z.enum(LANGUAGES)).min(1),
  notes: z.string().max(4000).default(""),
});
export type TeamProfileInput = z.infer<typeof TeamProfileForm>;

export type SaveResult =
  | { ok: true; id: string; warnings: GuardReason[] }
  | { ok: false; error: "brand" | "age" | "country" | "city" | "missing" };

/** The team-run profiles of the operator's brands (decision 211). */
export async function listTeamProfiles(d1: D1Database, operator: Operator) {
  const scope = brandScope(operator);
  const { profiles: p, users: u, brands: b, teamPersonas: tp } = schema;
  return getDb(d1)
    .select({
      id: p.userId,
      name: p.name,
      gender: p.gender,
      dateOfBirth: p.dateOfBirth,
      city: p.city,
      country: p.country,
      status: p.status,
      brandName: b.name,
      languages: tp.languages,
      retiredAt: tp.retiredAt,
    })
    .from(p)
    .innerJoin(u, eq(u.id, p.userId))
    .innerJoin(b, eq(b.id, u.brandId))
    .leftJoin(tp, eq(tp.userId, p.userId))
    .where(and(eq(p.fictional, true), sql`${u.deletedAt} IS NULL`, scope ? inArray(u.brandId, scope) : undefined))
    .orderBy(b.id, p.name);
}

/** One team-run profile, if it is of one of the operator's brands. */
export async function teamProfile(d1: D1Database, operator: Operator, id: string) {
  const { profiles: p, users: u, teamPersonas: tp } = schema;
  const [row] = await getDb(d1)
    .select({
      id: p.userId,
      brandId: u.brandId,
      name: p.name,
      gender: p.gender,
      dateOfBirth: p.dateOfBirth,
      country: p.country,
      city: p.city,
      aboutMe: p.aboutMe,
      status: p.status,
      languages: tp.languages,
      notes: tp.notes,
      retiredAt: tp.retiredAt,
    })
    .from(p)
    .innerJoin(u, eq(u.id, p.userId))
    .leftJoin(tp, eq(tp.userId, p.userId))
    .where(and(eq(p.userId, id), eq(p.fictional, true)));
  return row && inBrandScope(operator, row.brandId) ? row : null;
}

/** Creates (no `id`) or edits a team-run profile, audited in the same batch; warns on promising texts. */
export async function saveTeamProfile(
  d1: D1Database,
  operator: Operator,
  input: TeamProfileInput,
  id: string | null = null,
  now = nowS(),
): Promise<SaveResult> {
  const db = getDb(d1);
  const { brands, users, profiles, teamPersonas } = schema;
  const [brand] = await db.select().from(brands).where(eq(brands.id, input.brandId));
  if (!brand || !inBrandScope(operator, brand.id)) return { ok: false, error: "brand" };
  if (ageOn(input.dateOfBirth, new Date(now * 1000)) < brand.minAge) return { ok: false, error: "age" };
  if (!brand.countries.includes(input.country)) return { ok: false, error: "country" };
  // The members' rule: a town's own coordinates, never a finer position.
  const pos = await cityPosition(d1, input.country, input.city);
  if (!pos) return { ok: false, error: "city" };
  const aboutMe = normaliseText(input.aboutMe, { multiline: true });
  const notes = normaliseText(input.notes, { multiline: true });
  const languages = [...new Set(input.languages)].join(",");
  const profile = {
    name: normaliseText(input.name),
    gender: input.gender,
    dateOfBirth: input.dateOfBirth,
    country: input.country,
    region: "",
    city: input.city,
    lat: pos.lat,
    lon: pos.lon,
    aboutMe,
    updatedAt: now,
  };
  const warnings = guardReasons(`${profile.name}\n${aboutMe}`, brandPhrases(brand.teamPhrases), true);
  const persona = { notes, languages, updatedAt: now };
  const audit = (action: string, userId: string) =>
    auditStatement(
      db,
      operator,
      { action, targetType: "team_profile", targetId: userId, after: { ...profile, languages, warnings } },
      now,
    );
  if (id === null) {
    const userId = `team-${randomId(9)}`;
    await db.batch([
      db.insert(users).values({
        id: userId,
        brandId: brand.id,
        // Nobody logs in as a team-run profile: no password hashes to "!", no mail reaches this address.
        email: `${userId.toLowerCase()}@team-run.invalid`,
        passwordHash: "!",
        status: "confirmed",
        language: input.languages[0]!,
        walletAt: now,
        createdAt: now,
      }),
      db.insert(profiles).values({ userId, ...profile, fictional: true }),
      db.insert(teamPersonas).values({ userId, ...persona }),
      audit("team_profile.create", userId),
    ]);
    return { ok: true, id: userId, warnings };
  }
  const existing = await teamProfile(d1, operator, id);
  if (!existing || existing.brandId !== brand.id) return { ok: false, error: "missing" };
  await db.batch([
    // Guarded on the mark: only a team-run profile is edited here, and the mark itself is never written.
    db
      .update(profiles)
      .set(profile)
      .where(and(eq(profiles.userId, id), eq(profiles.fictional, true))),
    db
      .insert(teamPersonas)
      .values({ userId: id, ...persona })
      .onConflictDoUpdate({ target: teamPersonas.userId, set: persona }),
    audit("team_profile.edit", id),
  ]);
  return { ok: true, id, warnings };
}

/** Retires a team-run profile: hidden everywhere (as a disabled profile), kept for its conversations. Once. */
export async function retireTeamProfile(d1: D1Database, operator: Operator, id: string, now = nowS()) {
  if (!(await teamProfile(d1, operator, id))) return false;
  const db = getDb(d1);
  const { profiles, teamPersonas } = schema;
  const [changed] = await db.batch([
    db
      .update(profiles)
      .set({ status: "disabled", updatedAt: now })
      .where(and(eq(profiles.userId, id), eq(profiles.fictional, true), eq(profiles.status, "active"))),
    db
      .insert(teamPersonas)
      .values({ userId: id, retiredAt: now })
      .onConflictDoUpdate({ target: teamPersonas.userId, set: { retiredAt: now } }),
  ]);
  if (changed.meta.changes !== 1) return false;
  await auditStatement(db, operator, { action: "team_profile.retire", targetType: "team_profile", targetId: id }, now);
  return true;
}

type PhotoEnv = Pick<Env, "DB" | "PHOTOS" | "IMAGES">;

/** A team-run profile's photos with their review state (the editor's list). */
export const teamProfilePhotos = (d1: D1Database, id: string) => listOwnPhotos(d1, id);

/**
 * A photo for a team-run profile (decision 210): the members' own pipeline (checked, re-encoded without
 * EXIF by the images Worker, three variants in R2, `pending` until a moderator approves it, shown
 * meanwhile only where the brand's review mode shows members' pending photos), at the paid members'
 * photo limit; audited.
 */
export async function addTeamProfilePhoto(
  env: PhotoEnv,
  operator: Operator,
  id: string,
  bytes: Uint8Array,
  now = nowS(),
): Promise<{ ok: true; photoId: string } | { ok: false; error: UploadError | "missing" }> {
  if (!(await teamProfile(env.DB, operator, id))) return { ok: false, error: "missing" };
  const uploaded = await uploadPhoto(env, { id, paidUser: true }, bytes);
  if (!uploaded.ok) return uploaded;
  await auditStatement(
    getDb(env.DB),
    operator,
    { action: "team_profile.photo", targetType: "team_profile", targetId: id, after: { photoId: uploaded.id } },
    now,
  );
  return { ok: true, photoId: uploaded.id };
}

/** Removes one of a team-run profile's photos (row and files), audited. */
export async function removeTeamProfilePhoto(
  env: PhotoEnv,
  operator: Operator,
  id: string,
  photoId: string,
  now = nowS(),
) {
  if (!(await teamProfile(env.DB, operator, id))) return false;
  if (!(await listOwnPhotos(env.DB, id)).some((p) => p.id === photoId)) return false;
  await deletePhoto(env, id, photoId);
  await auditStatement(
    getDb(env.DB),
    operator,
    { action: "team_profile.photo_delete", targetType: "team_profile", targetId: id, before: { photoId } },
    now,
  );
  return true;
}

/** Is `photoId` a photo of a team-run profile this operator works on? (The console's photo route.) */
export async function isTeamPhotoInScope(d1: D1Database, operator: Operator, photoId: string) {
  const { photos, profiles, users } = schema;
  const [row] = await getDb(d1)
    .select({ brandId: users.brandId })
    .from(photos)
    .innerJoin(profiles, eq(profiles.userId, photos.userId))
    .innerJoin(users, eq(users.id, photos.userId))
    .where(and(eq(photos.id, photoId), eq(profiles.fictional, true)));
  return !!row && inBrandScope(operator, row.brandId);
}
