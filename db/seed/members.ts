/**
 * Demo members, their photos (R2 + photos table), the regions and cities tables, and the demo
 * accounts with a little activity. Called from db/seed.ts through wrangler's getPlatformProxy.
 */
import type { DrizzleD1Database } from "drizzle-orm/d1";
import {
  fakerDA,
  fakerDE,
  fakerDE_AT,
  fakerDE_CH,
  fakerEN_GB,
  fakerEN_IE,
  fakerEN_US,
  fakerES,
  fakerFI,
  fakerFR,
  fakerFR_BE,
  fakerFR_CH,
  fakerIT,
  fakerNB_NO,
  fakerNL,
  fakerNL_BE,
  fakerPL,
  fakerSV,
} from "@faker-js/faker";
import type * as schema from "../schema.ts";
import { hashPassword, randomId } from "../../app/lib/password.ts";
import { photoKey, type PhotoVariant } from "../../app/models/photos.server.ts";
import { FULL_SIZE, pickAvatar, renderPool, type Avatar } from "./avatars.ts";
import { loadGeo, loadRegionNames, namesOf, type City } from "./geo.ts";
import { clearBucket, inParallel, insertStatements } from "./insert.ts";
import { COUNTRY_PLAN, generateMember, type Member, type NameSource } from "./people.ts";
import { chance, createRng, weighted } from "./random.ts";
import { DEMO_PASSWORD, demoMembers, seedDemoActivity, seedDemoPayments } from "./demo.ts";

export const MEMBER_COUNT = 500;
const SEED = 20_260_101;

const FAKERS: Record<string, NameSource & { seed(n: number): unknown }> = {
  nl: fakerNL,
  nl_BE: fakerNL_BE,
  fr_BE: fakerFR_BE,
  fr_CH: fakerFR_CH,
  de: fakerDE,
  de_AT: fakerDE_AT,
  de_CH: fakerDE_CH,
  fr: fakerFR,
  it: fakerIT,
  es: fakerES,
  pl: fakerPL,
  da: fakerDA,
  fi: fakerFI,
  nb_NO: fakerNB_NO,
  sv: fakerSV,
  en_GB: fakerEN_GB,
  en_IE: fakerEN_IE,
  en_US: fakerEN_US,
};

type Env = { DB: D1Database; PHOTOS: R2Bucket; db: DrizzleD1Database<typeof schema>; pepper: string };
type PhotoRow = { id: string; userId: string; isPrivate: boolean; createdAt: number; avatar: Avatar };

export async function seedMembers({ DB, PHOTOS, pepper }: Env) {
  const rng = createRng(SEED);
  for (const [i, faker] of Object.values(FAKERS).entries()) faker.seed(SEED + i);
  const now = new Date();
  const nowS = Math.floor(now.getTime() / 1000);
  const timings: Record<string, number> = {};
  let t = Date.now();
  const lap = (name: string) => {
    timings[name] = Date.now() - t;
    t = Date.now();
  };

  // Old photos go first, in parallel with the CPU work below.
  const cleared = clearBucket(PHOTOS, "photos/");
  const geo = await loadGeo();
  const regionNames = loadRegionNames();
  await DB.batch([
    ...insertStatements(
      DB,
      "regions",
      ["country", "code", "name", "names"],
      geo.regions.map((r) => [r.country, r.code, r.name, namesOf(regionNames, r)]),
    ),
    ...insertStatements(
      DB,
      "cities",
      ["name", "country", "region_code", "lat", "lon", "population"],
      geo.cities.map((c) => [c.name, c.country, c.regionCode, c.lat, c.lon, c.population]),
    ),
  ]);
  lap("regions and cities");

  const citiesByCountry = new Map<string, City[]>();
  for (const c of geo.cities) citiesByCountry.set(c.country, [...(citiesByCountry.get(c.country) ?? []), c]);
  const members: Member[] = [];
  for (let i = 0; i < MEMBER_COUNT; i++) {
    const plan = weighted(
      rng,
      COUNTRY_PLAN.map((p) => [p, p.weight] as const),
    );
    members.push(generateMember(rng, i + 1, plan, FAKERS[plan.locale]!, citiesByCountry.get(plan.country)!, now));
  }
  const demos = demoMembers(citiesByCountry, now);
  const all = [...demos, ...members];
  const passwordHash = await hashPassword(DEMO_PASSWORD, pepper); // once: PBKDF2 is slow by design
  const pool = await renderPool();
  lap("members and avatars");

  const ids = all.map(() => randomId());
  const photos: PhotoRow[] = [];
  const mainPhoto = all.map((m, i) => {
    const rows = Array.from({ length: m.photoCount }, (_, p) => ({
      id: randomId(),
      userId: ids[i]!,
      avatar: pickAvatar(rng, pool, m.profile.gender, m.profile.hairColour),
      isPrivate: p > 0 && chance(rng, 0.35), // the first (main) photo is always public
      createdAt: Math.min(nowS, m.createdAt + p * 3600),
    }));
    photos.push(...rows);
    return rows[0]?.id ?? null;
  });

  await DB.batch([
    ...insertStatements(
      DB,
      "users",
      [
        "id",
        "brand_id",
        "email",
        "password_hash",
        "paid_user",
        "credits",
        "language",
        "status",
        "created_at",
        "last_seen_at",
      ],
      all.map((m, i) => [
        ids[i],
        m.brandId,
        m.email,
        passwordHash,
        m.paidUser,
        0,
        m.language,
        m.status,
        m.createdAt,
        m.lastSeenAt,
      ]),
    ),
    ...insertStatements(
      DB,
      "profiles",
      [
        "user_id",
        "name",
        "status",
        "gender",
        "sexuality",
        "date_of_birth",
        "country",
        "region",
        "city",
        "lat",
        "lon",
        "about_me",
        "hair_colour",
        "eye_colour",
        "body_type",
        "relationship_status",
        "tattoos",
        "signup_reason",
        "main_photo_id",
        "fictional",
        "updated_at",
      ],
      all.map(({ profile: p, createdAt }, i) => [
        ids[i],
        p.name,
        p.status,
        p.gender,
        p.sexuality,
        p.dateOfBirth,
        p.country,
        p.region,
        p.city,
        p.lat,
        p.lon,
        p.aboutMe,
        p.hairColour,
        p.eyeColour,
        p.bodyType,
        p.relationshipStatus,
        p.tattoos,
        p.signupReason,
        mainPhoto[i],
        p.fictional,
        createdAt,
      ]),
    ),
    ...insertStatements(
      DB,
      "profile_interests",
      ["user_id", "interest_id"],
      all.flatMap((m, i) => m.interests.map((interest) => [ids[i], interest])),
    ),
    ...insertStatements(
      DB,
      "photos",
      // Demo photos are approved (decision 175); an upload waits for review.
      ["id", "user_id", "is_private", "width", "height", "created_at", "review"],
      photos.map((p) => [p.id, p.userId, p.isPrivate, FULL_SIZE, FULL_SIZE, p.createdAt, "approved"]),
    ),
  ]);
  lap("rows");

  const removed = await cleared;
  lap(`waiting for the old photos' removal (${removed} objects)`);
  const puts = photos.flatMap((p) => (["full", "thumb", "blur"] as const).map((variant) => [p, variant] as const));
  await inParallel(puts, 64, ([photo, variant]: readonly [PhotoRow, PhotoVariant]) =>
    PHOTOS.put(photoKey(photo.id, variant), photo.avatar[variant], { httpMetadata: { contentType: "image/webp" } }),
  );
  lap(`R2 (${puts.length} objects)`);

  const idOf = new Map(demos.map((d, i) => [d.email, ids[i]!]));
  const activity = await seedDemoActivity(DB, idOf, nowS);
  await seedDemoPayments(DB, nowS);
  lap("demo activity");
  return { timings, activity, demoEmails: demos.map((d) => d.email), demoPassword: DEMO_PASSWORD };
}
