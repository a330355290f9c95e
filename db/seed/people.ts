/**
 * Who the demo members are: countries, ages, genders, looks and habits. Pure (given a random
 * source and the name generators), so the rules can be unit tested.
 */
import { INTERESTS, type Language } from "../../app/lib/constants.ts";
import { jitter, pickCity, type City } from "./geo.ts";
import { composeAboutMe } from "./about-me.ts";
import type { BodyType, EyeColour, HairColour, RelationshipStatus, SignupReason, Tattoos } from "./profile-options.ts";
import { chance, int, sample, weighted, type Rng } from "./random.ts";

/** German-speaking Swiss cantons; the French-speaking ones get French names and texts. */
const CH_DE = [
  "AG",
  "AI",
  "AR",
  "BE",
  "BL",
  "BS",
  "GL",
  "GR",
  "LU",
  "NW",
  "OW",
  "SG",
  "SH",
  "SO",
  "SZ",
  "TG",
  "UR",
  "ZG",
  "ZH",
];
const CH_FR = ["GE", "VD", "NE", "JU"];

/**
 * Share of members per country, the faker locale for their names, their language, and (for the
 * bilingual countries) the regions where that language is spoken.
 */
export const COUNTRY_PLAN: readonly {
  country: string;
  weight: number;
  locale: string;
  language: Language;
  regions?: readonly string[];
}[] = [
  { country: "NL", weight: 16, locale: "nl", language: "nl" },
  { country: "BE", weight: 5, locale: "nl_BE", language: "nl", regions: ["VLG", "BRU"] },
  { country: "BE", weight: 2, locale: "fr_BE", language: "fr", regions: ["WAL", "BRU"] },
  { country: "DE", weight: 16, locale: "de", language: "de" },
  { country: "AT", weight: 5, locale: "de_AT", language: "de" },
  { country: "CH", weight: 4, locale: "de_CH", language: "de", regions: CH_DE },
  { country: "CH", weight: 1, locale: "fr_CH", language: "fr", regions: CH_FR },
  { country: "FR", weight: 8, locale: "fr", language: "fr" },
  { country: "IT", weight: 7, locale: "it", language: "it" },
  { country: "ES", weight: 7, locale: "es", language: "es" },
  { country: "PL", weight: 6, locale: "pl", language: "pl" },
  { country: "DK", weight: 3, locale: "da", language: "da" },
  { country: "FI", weight: 3, locale: "fi", language: "fi" },
  { country: "NO", weight: 3, locale: "nb_NO", language: "nb" },
  { country: "SE", weight: 4, locale: "sv", language: "sv" },
  { country: "GB", weight: 7, locale: "en_GB", language: "en" },
  { country: "IE", weight: 2, locale: "en_IE", language: "en" },
  { country: "US", weight: 2, locale: "en_US", language: "en" },
];

export type CountryPlan = (typeof COUNTRY_PLAN)[number];

/** The cities a member of this plan may live in. */
export const citiesFor = (plan: CountryPlan, citiesOfCountry: readonly City[]) =>
  plan.regions ? citiesOfCountry.filter((c) => plan.regions!.includes(c.regionCode)) : citiesOfCountry;
export type Gender = "male" | "female";
export type Sexuality = "hetero" | "gay" | "lesbian" | "bi";

/** What the seed needs from a faker instance (one per locale). */
export type NameSource = {
  person: { firstName(sex?: "male" | "female"): string; lastName(sex?: "male" | "female"): string };
};

const DAY = 86_400;

/**
 * Age brackets: plenty of mature women (the milf and gilf niches) and of men in their thirties
 * to fifties; everyone 18 to 75.
 */
const AGE_BRACKETS: Record<Gender, readonly (readonly [[number, number], number])[]> = {
  female: [
    [[18, 24], 14],
    [[25, 34], 22],
    [[35, 44], 20],
    [[45, 54], 19],
    [[55, 64], 15],
    [[65, 75], 10],
  ],
  male: [
    [[18, 24], 12],
    [[25, 34], 24],
    [[35, 44], 24],
    [[45, 54], 20],
    [[55, 64], 13],
    [[65, 75], 7],
  ],
};

export function randomAge(rng: Rng, gender: Gender): number {
  const [min, max] = weighted(rng, AGE_BRACKETS[gender]);
  return int(rng, min, max);
}

/** A date of birth (YYYY-MM-DD) for someone exactly `age` years old on `now`. */
export function dateOfBirthForAge(rng: Rng, age: number, now: Date): string {
  // The latest possible birthday is today `age` years ago (29 February falls back to the 28th in a
  // common year); the earliest one a year (minus a day) before.
  const sameDay = (year: number) =>
    Math.min(Date.UTC(year, now.getUTCMonth(), now.getUTCDate()), Date.UTC(year, now.getUTCMonth() + 1, 0));
  const latest = sameDay(now.getUTCFullYear() - age);
  const earliest = sameDay(now.getUTCFullYear() - age - 1) + DAY * 1000;
  const days = Math.floor((latest - earliest) / (DAY * 1000));
  return new Date(latest - int(rng, 0, days) * DAY * 1000).toISOString().slice(0, 10);
}

export function randomGenderAndSexuality(rng: Rng): { gender: Gender; sexuality: Sexuality } {
  if (chance(rng, 0.58))
    return {
      gender: "female",
      sexuality: weighted(rng, [
        ["hetero", 78],
        ["bi", 14],
        ["lesbian", 8],
      ] as const),
    };
  return {
    gender: "male",
    sexuality: weighted(rng, [
      ["hetero", 62],
      ["gay", 28],
      ["bi", 10],
    ] as const),
  };
}

const NORDIC = new Set(["DK", "FI", "NO", "SE", "NL"]);
const SOUTH = new Set(["IT", "ES", "FR"]);

export function randomHair(rng: Rng, gender: Gender, age: number, country: string): HairColour {
  const grey = age < 40 ? 0.03 : age < 55 ? 0.15 : age < 65 ? 0.4 : 0.65;
  if (gender === "male" && age >= 35 && chance(rng, age >= 55 ? 0.25 : 0.12)) return "bald";
  if (chance(rng, grey)) return "grey";
  const blond = NORDIC.has(country) ? 40 : SOUTH.has(country) ? 12 : 25;
  const black = SOUTH.has(country) ? 35 : 18;
  return weighted(rng, [
    ["blond", blond],
    ["brown", 40],
    ["black", black],
    ["red", 7],
  ] as const);
}

export function randomBodyType(rng: Rng, gender: Gender): BodyType {
  return gender === "female"
    ? weighted(rng, [
        ["slim", 20],
        ["athletic", 12],
        ["average", 25],
        ["curvy", 25],
        ["plus_size", 18],
      ] as const)
    : weighted(rng, [
        ["slim", 15],
        ["athletic", 25],
        ["average", 35],
        ["muscular", 12],
        ["plus_size", 13],
      ] as const);
}

/** Interests: a few everyday ones, and for about one in eight members the kinkier side (bdsm niche). */
const KINKY = ["bondage", "sadomasochism", "sex_toys", "lingerie", "public_sex", "threesome"] as const;
export function randomInterests(rng: Rng): string[] {
  const picked = new Set(sample(rng, INTERESTS, int(rng, 3, 8)));
  if (chance(rng, 0.12)) for (const i of sample(rng, KINKY, int(rng, 2, 4))) picked.add(i);
  return [...picked];
}

/** Sign-up and last-seen moments: some members are brand new, some online right now. */
export function randomTimes(rng: Rng, nowS: number): { createdAt: number; lastSeenAt: number } {
  const ageDays = chance(rng, 0.08) ? rng() * 7 : 7 + rng() ** 1.5 * 720;
  const createdAt = Math.floor(nowS - ageDays * DAY);
  const sinceSeen = weighted(rng, [
    [() => rng() * 240, 12], // online: seen in the last 4 minutes
    [() => rng() * DAY, 28],
    [() => rng() * 30 * DAY, 35],
    [() => rng() * 365 * DAY, 25],
  ] as const)();
  return { createdAt, lastSeenAt: Math.max(createdAt, Math.floor(nowS - sinceSeen)) };
}

/**
 * Brand 1 is the general site. Herzklang (2, mature women) takes many German-speaking women of 35
 * and over, Flirtlokaal (3, women seeking men) many Dutch-speaking women who like men; each also
 * gets some men, who are the ones searching there.
 */
export function brandFor(rng: Rng, country: string, gender: Gender, sexuality: Sexuality, age: number): number {
  const woman = gender === "female";
  if (["DE", "AT", "CH"].includes(country) && chance(rng, woman ? (age >= 35 ? 0.6 : 0.1) : 0.25)) return 2;
  if (["NL", "BE"].includes(country) && chance(rng, woman ? (sexuality === "lesbian" ? 0 : 0.5) : 0.25)) return 3;
  return 1;
}

export type Member = {
  index: number;
  brandId: number;
  email: string;
  paidUser: boolean;
  language: Language;
  status: "confirmed" | "not_confirmed";
  createdAt: number;
  lastSeenAt: number;
  profile: {
    name: string;
    status: "active" | "disabled";
    gender: Gender;
    sexuality: Sexuality;
    dateOfBirth: string;
    country: string;
    region: string;
    city: string;
    lat: number;
    lon: number;
    aboutMe: string;
    hairColour: HairColour;
    eyeColour: EyeColour;
    bodyType: BodyType;
    relationshipStatus: RelationshipStatus;
    tattoos: Tattoos;
    signupReason: SignupReason;
    fictional: boolean;
  };
  interests: string[];
  /** Number of photos (0 to 6); the first is the main photo, later ones may be private. */
  photoCount: number;
};

const ascii = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]/g, "")
    .toLowerCase();

export function generateMember(
  rng: Rng,
  index: number,
  plan: CountryPlan,
  names: NameSource,
  citiesOfCountry: readonly City[],
  now: Date,
): Member {
  const { gender, sexuality } = randomGenderAndSexuality(rng);
  const age = randomAge(rng, gender);
  const first = names.person.firstName(gender);
  const last = names.person.lastName(gender);
  const city = pickCity(rng, citiesFor(plan, citiesOfCountry));
  const { createdAt, lastSeenAt } = randomTimes(rng, Math.floor(now.getTime() / 1000));
  const relationship = weighted(rng, [
    ["single", 55],
    ["divorced", age >= 30 ? 20 : 2],
    ["widowed", age >= 50 ? 10 : 0],
    ["separated", 7],
    ["open_relationship", 6],
    ["married", 4],
  ] as const);
  const tattoos = weighted(rng, [
    ["none", age >= 50 ? 75 : 50],
    ["one", 20],
    ["few", 18],
    ["many", age < 40 ? 12 : 4],
  ] as const);
  return {
    index,
    brandId: brandFor(rng, plan.country, gender, sexuality, age),
    email: `${ascii(first) || "member"}.${ascii(last) || "x"}${index}@example.com`,
    paidUser: chance(rng, 0.15),
    language: plan.language,
    status: chance(rng, 0.06) ? "not_confirmed" : "confirmed",
    createdAt,
    lastSeenAt,
    profile: {
      name: first,
      status: chance(rng, 0.02) ? "disabled" : "active",
      gender,
      sexuality,
      dateOfBirth: dateOfBirthForAge(rng, age, now),
      country: plan.country,
      region: city.regionCode,
      city: city.name,
      ...jitter(rng, city),
      aboutMe: composeAboutMe(rng, plan.language, { gender, name: first, city: city.name, age }),
      hairColour: randomHair(rng, gender, age, plan.country),
      eyeColour: weighted(rng, [
        ["blue", 30],
        ["brown", 35],
        ["green", 12],
        ["grey", 8],
        ["hazel", 15],
      ] as const),
      bodyType: randomBodyType(rng, gender),
      relationshipStatus: relationship,
      tattoos,
      signupReason: weighted(rng, [
        ["fun", 25],
        ["flirt", 22],
        ["chat", 15],
        ["friendship", 10],
        ["relationship", 18],
        ["adventure", 10],
      ] as const),
      fictional: gender === "female" && chance(rng, 0.05),
    },
    interests: randomInterests(rng),
    // Every photo is three R2 objects, the bulk of the seed's time: most members have one, many 2-6.
    photoCount: weighted(rng, [
      [0, 10],
      [1, 58],
      [2, 12],
      [3, 8],
      [4, 6],
      [5, 4],
      [6, 2],
    ] as const),
  };
}
