/**
 * Profiles: the fields of docs/product/data.md §3, who may see a profile, and what one profile page needs,
 * read in one D1 batch. Exact positions never leave the server: city and region at most.
 */
import { ageOn, isRealDate } from "~/lib/dates";
import { line, paragraph } from "~/lib/text";
import { z } from "zod";
import { and, eq, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { getDb, schema } from "../../db/client";
import { INTERESTS } from "~/lib/constants";
import {
  BODY_TYPES,
  CHOICE_FIELDS,
  EYE_COLOURS,
  GENDERS,
  HAIR_COLOURS,
  RELATIONSHIP_STATUSES,
  SEXUALITIES,
  SIGNUP_REASONS,
  TATTOOS,
  type ChoiceField,
} from "./profile-options";
import { photosAsSeen, photosOfQuery, shownPhoto, shownPhotoSql, type Viewer } from "./photos.server";
import { regionName } from "./geo.server";

export {
  GENDERS,
  SEXUALITIES,
  HAIR_COLOURS,
  EYE_COLOURS,
  BODY_TYPES,
  RELATIONSHIP_STATUSES,
  TATTOOS,
  SIGNUP_REASONS,
  CHOICE_FIELDS,
  type ChoiceField,
};

export type LikeState = "none" | "sent" | "received" | "match";

/** The like state between viewer and target, from the likers of the (at most two) rows between them. */
export function likeStateOf(viewerId: string, likers: string[]): LikeState {
  const sent = likers.includes(viewerId);
  const received = likers.some((l) => l !== viewerId);
  return sent && received ? "match" : sent ? "sent" : received ? "received" : "none";
}

/**
 * The likers of the rows between two members that count as likes: the viewer's own, and the other's unless it
 * was the automatic one, a suggestion that makes no "received" and no match (decisions 179, 214).
 */
export const chosenLikers = (viewerId: string, rows: { likerId: string; source: string }[]) =>
  rows.filter((r) => r.likerId === viewerId || r.source !== "auto").map((r) => r.likerId);

/** A member counts as online this long after their last request. */
export const ONLINE_WINDOW_S = 5 * 60;

export function isOnline(lastSeenAt: number, invisible: boolean, now = Date.now() / 1000): boolean {
  return !invisible && now - lastSeenAt <= ONLINE_WINDOW_S;
}

/** The three answers to "may this viewer see this profile?" */
export type ProfileAccess = "ok" | "blocked" | "not_found";

export function profileAccess(
  target: { id: string; deleted: boolean; disabled: boolean; blockedViewer: boolean } | null,
  viewer: Viewer,
): ProfileAccess {
  if (!target) return "not_found";
  if (viewer?.id === target.id) return target.deleted ? "not_found" : "ok";
  if (target.deleted || target.disabled) return "not_found";
  return target.blockedViewer ? "blocked" : "ok";
}

export interface MainImage {
  filename: string;
  thumb_filename: string;
  match: string;
}

/** The spec's main_image shape (filename, thumb_filename, match) for a photo id. */
export function mainImageOf(photoId: string | null): MainImage | null {
  return photoId
    ? {
        filename: `/photos/${photoId}/full`,
        thumb_filename: `/photos/${photoId}/thumb`,
        match: `/photos/${photoId}/thumb`,
      }
    : null;
}

/** What a card in a list (search, likes, finder) shows. */
export interface ProfileCard {
  id: string;
  name: string;
  age: number;
  city: string;
  region: string;
  country: string;
  mainPhotoId: string | null;
  online: boolean;
  premium: boolean;
  fictional: boolean;
}

/**
 * Columns a card query selects (profiles p JOIN users u). The main photo only as others may see it
 * (decision 175): a photo waiting for review leaves the card with the placeholder, not hidden.
 */
export const CARD_COLUMNS = `p.user_id AS id, p.name, p.date_of_birth, p.city, p.country, ${shownPhotoSql("p.main_photo_id")} AS main_photo_id,
  p.fictional, u.paid_user, u.last_seen_at, u.invisible,
  COALESCE((SELECT rg.name FROM regions rg WHERE rg.country = p.country AND rg.code = p.region), p.region) AS region,
  (SELECT rg.names FROM regions rg WHERE rg.country = p.country AND rg.code = p.region) AS region_names`;

/**
 * CARD_COLUMNS for drizzle's builder (profiles JOIN users), under the same names, so toCard reads the rows
 * of both. Every name is unique (a D1 batch keys rows by column name, decision 070).
 */
export function cardFields() {
  const { profiles: p, users: u } = schema;
  const regionOf = (col: "name" | "names") =>
    sql`(SELECT rg.${sql.raw(col)} FROM regions rg WHERE rg.country = ${p.country} AND rg.code = ${p.region})`;
  return {
    id: p.userId,
    name: p.name,
    date_of_birth: p.dateOfBirth,
    city: p.city,
    country: p.country,
    main_photo_id: shownPhoto(p.mainPhotoId).as("main_photo_id"),
    fictional: p.fictional,
    paid_user: u.paidUser,
    last_seen_at: u.lastSeenAt,
    invisible: u.invisible,
    region: sql<string>`COALESCE(${regionOf("name")}, ${p.region})`.as("region"),
    region_names: sql<string | null>`${regionOf("names")}`.as("region_names"),
  };
}

/** A card row: from the builder (cardFields, flags as booleans) or a raw CARD_COLUMNS read (flags as 0/1). */
export type CardRow = {
  id: string;
  name: string;
  date_of_birth: string;
  city: string;
  region: string;
  region_names: string | null;
  country: string;
  main_photo_id: string | null;
  fictional: number | boolean;
  paid_user: number | boolean;
  last_seen_at: number;
  invisible: number | boolean;
};

/** A card as shown in the page's language `lng` (the region's name; decision 133). */
export function toCard(r: CardRow, today = new Date(), lng = "en"): ProfileCard {
  return {
    id: r.id,
    name: r.name,
    age: ageOn(r.date_of_birth, today),
    city: r.city,
    region: regionName(r.region_names, r.region, lng),
    country: r.country,
    mainPhotoId: r.main_photo_id,
    online: isOnline(r.last_seen_at, !!r.invisible),
    premium: !!r.paid_user,
    fictional: !!r.fictional,
  };
}

/** A profile as the profile page shows it, limited to the brand's visible_profile_fields. */
export interface ProfileDetails extends ProfileCard {
  fields: { key: string; value: string; choice: boolean }[];
  interests: string[];
  aboutMe: string | null;
}

export type ProfilePage =
  | { access: "not_found" }
  | { access: "blocked"; name: string }
  | {
      access: "ok";
      profile: ProfileDetails;
      photos: ReturnType<typeof photosAsSeen>;
      likeState: LikeState;
      likeSuggested: boolean;
      viewerBlocked: boolean;
      own: boolean;
    };

/**
 * Everything the profile page needs in one batch: the profile, its interests, the like rows between
 * the two members, and (a read receipt, like opening a chat) clearing the like_new of a like the
 * viewer received from this member.
 */
export async function loadProfilePage(
  d1: D1Database,
  targetId: string,
  viewer: Viewer,
  visibleFields: string[],
  lng = "en",
): Promise<ProfilePage> {
  const viewerId = viewer?.id ?? "";
  const db = getDb(d1);
  const { profiles: p, users: u, likes, profileInterests: pi, interests: i } = schema;
  const [main, interests, likeRows, , photos] = await db.batch([
    db
      .select({
        ...cardFields(),
        status: p.status,
        gender: p.gender,
        sexuality: p.sexuality,
        about_me: p.aboutMe,
        hair_colour: p.hairColour,
        eye_colour: p.eyeColour,
        body_type: p.bodyType,
        relationship_status: p.relationshipStatus,
        tattoos: p.tattoos,
        signup_reason: p.signupReason,
        deleted_at: u.deletedAt,
        own_main_photo_id: sql<string | null>`${p.mainPhotoId}`.as("own_main_photo_id"),
        blocked_viewer:
          sql<number>`EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ${p.userId} AND b.blocked_id = ${viewerId})`.as(
            "blocked_viewer",
          ),
        viewer_blocked:
          sql<number>`EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ${viewerId} AND b.blocked_id = ${p.userId})`.as(
            "viewer_blocked",
          ),
      })
      .from(p)
      .innerJoin(u, eq(u.id, p.userId))
      .where(eq(p.userId, targetId)),
    db
      .select({ id: pi.interestId })
      .from(pi)
      .innerJoin(i, eq(i.id, pi.interestId))
      .where(eq(pi.userId, targetId))
      .orderBy(i.sort),
    db
      .select({ likerId: likes.likerId, source: likes.source })
      .from(likes)
      .where(
        or(
          and(eq(likes.likerId, viewerId), eq(likes.likedId, targetId)),
          and(eq(likes.likerId, targetId), eq(likes.likedId, viewerId)),
        ),
      ),
    db
      .update(likes)
      .set({ likeNew: false })
      .where(and(eq(likes.likerId, targetId), eq(likes.likedId, viewerId), eq(likes.likeNew, true))),
    photosOfQuery(db, targetId, viewerId),
  ]);
  const r = main[0];
  const access = profileAccess(
    r
      ? { id: r.id, deleted: r.deleted_at !== null, disabled: r.status !== "active", blockedViewer: !!r.blocked_viewer }
      : null,
    viewer,
  );
  if (access === "not_found" || !r) return { access: "not_found" };
  if (access === "blocked") return { access: "blocked", name: r.name };
  const visible = new Set(visibleFields);
  const fields: ProfileDetails["fields"] = [];
  const add = (key: string, value: string | null | undefined, choice: boolean) => {
    if (visible.has(key) && value) fields.push({ key, value, choice });
  };
  add("gender", r.gender, true);
  add("sexuality", r.sexuality, true);
  for (const key of Object.keys(CHOICE_FIELDS) as ChoiceField[]) add(key, r[key], true);
  const likers = chosenLikers(viewerId, likeRows);
  const card = toCard(r, new Date(), lng);
  return {
    access: "ok",
    own: viewerId === r.id,
    viewerBlocked: !!r.viewer_blocked,
    likeState: likeStateOf(viewerId, likers),
    // Their like was the site's automatic one: a suggestion, not their choice (decision 179).
    likeSuggested: likeRows.some((l) => l.likerId !== viewerId && l.source === "auto"),
    photos: photosAsSeen(r.id, photos, viewer),
    profile: {
      ...card,
      // The owner sees their own main photo, even while it waits for review.
      mainPhotoId: viewerId === r.id ? r.own_main_photo_id : card.mainPhotoId,
      city: visible.has("city") ? card.city : "",
      region: visible.has("region") ? card.region : "",
      fields,
      interests: visible.has("interests") ? interests.map((x) => x.id) : [],
      aboutMe: visible.has("about_me") ? r.about_me : null,
    },
  };
}

/* ---------- my profile ---------- */

export interface OwnProfile {
  name: string;
  gender: string;
  sexuality: string;
  dateOfBirth: string;
  country: string;
  region: string;
  city: string;
  aboutMe: string;
  hairColour: string | null;
  eyeColour: string | null;
  bodyType: string | null;
  relationshipStatus: string | null;
  tattoos: string | null;
  signupReason: string | null;
  interests: string[];
  hasPosition: boolean;
}

export async function loadOwnProfile(d1: D1Database, userId: string): Promise<OwnProfile | null> {
  const db = getDb(d1);
  const { profiles: p, profileInterests: pi } = schema;
  const [rows, i] = await db.batch([
    db
      .select({
        name: p.name,
        gender: p.gender,
        sexuality: p.sexuality,
        dateOfBirth: p.dateOfBirth,
        country: p.country,
        region: p.region,
        city: p.city,
        aboutMe: p.aboutMe,
        hairColour: p.hairColour,
        eyeColour: p.eyeColour,
        bodyType: p.bodyType,
        relationshipStatus: p.relationshipStatus,
        tattoos: p.tattoos,
        signupReason: p.signupReason,
        hasPosition: sql<number>`${p.lat} IS NOT NULL`,
      })
      .from(p)
      .where(eq(p.userId, userId)),
    db.select({ interestId: pi.interestId }).from(pi).where(eq(pi.userId, userId)),
  ]);
  const r = rows[0];
  if (!r) return null;
  return {
    name: String(r.name),
    gender: String(r.gender),
    sexuality: String(r.sexuality),
    dateOfBirth: String(r.dateOfBirth),
    country: String(r.country),
    region: String(r.region),
    city: String(r.city),
    aboutMe: String(r.aboutMe),
    hairColour: r.hairColour,
    eyeColour: r.eyeColour,
    bodyType: r.bodyType,
    relationshipStatus: r.relationshipStatus,
    tattoos: r.tattoos,
    signupReason: r.signupReason,
    interests: i.map((x) => x.interestId),
    hasPosition: !!r.hasPosition,
  };
}

export type ProfileUpdate = Partial<{
  name: string;
  gender: (typeof GENDERS)[number];
  sexuality: (typeof SEXUALITIES)[number];
  dateOfBirth: string;
  aboutMe: string;
  hairColour: string | null;
  eyeColour: string | null;
  bodyType: string | null;
  relationshipStatus: string | null;
  tattoos: string | null;
  signupReason: string | null;
  country: string;
  region: string;
  city: string;
  lat: number | null;
  lon: number | null;
}>;

/** Saves the given fields (already validated) and, when given, replaces the interests; one batch. */
export async function updateProfile(d1: D1Database, userId: string, update: ProfileUpdate, interests?: string[]) {
  const db = getDb(d1);
  const { profiles, profileInterests } = schema;
  const set = Object.fromEntries(Object.entries(update).filter(([, v]) => v !== undefined)) as ProfileUpdate;
  const statements: BatchItem<"sqlite">[] = [];
  if (Object.keys(set).length) {
    statements.push(
      db
        .update(profiles)
        .set({ ...set, updatedAt: sql`unixepoch()` })
        .where(eq(profiles.userId, userId)),
    );
  }
  if (interests) {
    const valid = interests.filter((i) => (INTERESTS as readonly string[]).includes(i));
    statements.push(db.delete(profileInterests).where(eq(profileInterests.userId, userId)));
    if (valid.length) {
      statements.push(db.insert(profileInterests).values(valid.map((interestId) => ({ userId, interestId }))));
    }
  }
  const [first, ...rest] = statements;
  if (first) await db.batch([first, ...rest]);
}

/* ---------- the profile form ---------- */

const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.union([z.enum(values), z.literal("")]).transform((v) => (v === "" ? null : v));

/**
 * The /profile form. Error messages are translation keys (members.json "form.*"); the date of
 * birth's minimum age and the e-mail comparison come from the caller.
 */
export function profileFormSchema(o: { minAge: number; email: string; countries: string[]; today?: Date }) {
  const today = o.today ?? new Date();
  return z.object({
    name: line(
      z
        .string()
        .min(2, "form.nameLength")
        .max(40, "form.nameLength")
        .refine((n) => !n.startsWith("@"), "form.nameAt")
        .refine((n) => n.toLowerCase() !== o.email.toLowerCase(), "form.nameEmail"),
    ),
    gender: z.enum(GENDERS),
    sexuality: z.enum(SEXUALITIES),
    date_of_birth: z
      .string()
      .refine((d) => isRealDate(d) && ageOn(d, today) <= 120, "form.dobInvalid")
      .refine((d) => ageOn(d, today) >= o.minAge, "form.dobMin"),
    country: z.string().refine((c) => o.countries.includes(c), "form.country"),
    region: line(z.string().max(20).default("")),
    city: line(z.string().max(80).default("")),
    about_me: paragraph(z.string().max(2000).default("")),
    hair_colour: choice(HAIR_COLOURS),
    eye_colour: choice(EYE_COLOURS),
    body_type: choice(BODY_TYPES),
    relationship_status: choice(RELATIONSHIP_STATUSES),
    tattoos: choice(TATTOOS),
    signup_reason: choice(SIGNUP_REASONS),
    lat: z.union([z.literal(""), z.coerce.number().min(-90).max(90)]).default(""),
    lon: z.union([z.literal(""), z.coerce.number().min(-180).max(180)]).default(""),
  });
}
