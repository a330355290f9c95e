/**
 * Demo accounts (never seeded in production: db/seed.ts refuses) and a little activity around
 * them, so badges, likes and the chat overview show something on first start.
 */
import { randomId } from "../../app/lib/password.ts";
import type { City } from "./geo.ts";
import { insertStatements } from "./insert.ts";
import { dateOfBirthForAge, type Member } from "./people.ts";

export const DEMO_PASSWORD = "Demo-pass-2026";
export const PREMIUM_CREDITS = 250;
const MINUTE = 60;
const DAY = 86_400;

export function demoMembers(citiesByCountry: Map<string, City[]>, now: Date): Member[] {
  const nowS = Math.floor(now.getTime() / 1000);
  const cityIn = (country: string, name: string) => {
    const cities = citiesByCountry.get(country)!;
    return cities.find((c) => c.name === name) ?? cities[0]!;
  };
  const base = (city: City, age: number) => ({
    brandId: 1,
    language: "en" as const,
    interests: ["cooking", "travelling", "wine", "music"],
    profile: {
      status: "active" as const,
      sexuality: "hetero" as const,
      dateOfBirth: dateOfBirthForAge(() => 0.5, age, now),
      country: city.country,
      region: city.regionCode,
      city: city.name,
      lat: city.lat,
      lon: city.lon,
      eyeColour: "blue" as const,
      relationshipStatus: "single" as const,
      tattoos: "none" as const,
      fictional: false,
    },
  });
  const free = base(cityIn("NL", "Utrecht"), 34);
  const premium = base(cityIn("GB", "London"), 41);
  const fresh = base(cityIn("GB", "Manchester"), 27);
  const age = base(cityIn("DE", "Berlin"), 38);
  return [
    {
      ...free,
      index: 0,
      email: "free@example.com",
      paidUser: false,
      status: "confirmed",
      photoCount: 2,
      createdAt: nowS - 40 * DAY,
      lastSeenAt: nowS - 2 * MINUTE,
      profile: {
        ...free.profile,
        name: "Mark",
        gender: "male",
        hairColour: "brown",
        bodyType: "athletic",
        signupReason: "flirt",
        aboutMe:
          "Just moved to Utrecht for work. I like cycling along the canals, good coffee and people who can laugh at themselves.",
      },
    },
    {
      ...premium,
      index: 0,
      email: "premium@example.com",
      paidUser: true,
      status: "confirmed",
      photoCount: 3,
      createdAt: nowS - 120 * DAY,
      lastSeenAt: nowS - MINUTE,
      profile: {
        ...premium.profile,
        name: "Daniel",
        gender: "male",
        hairColour: "black",
        bodyType: "average",
        signupReason: "relationship",
        relationshipStatus: "divorced",
        aboutMe:
          "Architect by day, amateur chef by night. Looking for someone to share a bottle of wine and a long conversation with.",
      },
    },
    {
      ...fresh,
      index: 0,
      email: "new@example.com",
      paidUser: false,
      status: "not_confirmed",
      photoCount: 0,
      createdAt: nowS,
      lastSeenAt: nowS,
      profile: {
        ...fresh.profile,
        name: "Emma",
        gender: "female",
        status: "disabled",
        hairColour: "red",
        bodyType: "slim",
        signupReason: "fun",
        aboutMe: "",
      },
    },
    // Herzklang asks a proof of age (decision 185): this member has none yet.
    {
      ...age,
      brandId: 2,
      language: "de",
      index: 0,
      email: "age@example.com",
      paidUser: false,
      status: "confirmed",
      photoCount: 1,
      createdAt: nowS - 10 * DAY,
      lastSeenAt: nowS - 30 * MINUTE,
      profile: {
        ...age.profile,
        name: "Jonas",
        gender: "male",
        hairColour: "blond",
        bodyType: "average",
        signupReason: "relationship",
        aboutMe: "Ich koche gern, wandere am Wochenende und suche jemanden für lange Gespräche.",
      },
    },
  ];
}

const PREMIUM_CHAT = [
  "Hi Daniel! Thanks for the like 😊",
  "I read that you love cooking. What is your signature dish?",
  "I'm around tonight if you fancy a chat 😉",
];

/**
 * Likes for free@ and premium@ (some still new), one mutual match for premium@ and a conversation
 * she started with three unread messages; premium@'s credits bought through the ledger.
 */
export async function seedDemoActivity(DB: D1Database, idOf: Map<string, string>, nowS: number) {
  const free = idOf.get("free@example.com")!;
  const premium = idOf.get("premium@example.com")!;
  // Women on brand 1 who would like these men; English speakers first so the chat reads naturally.
  const { results: women } = await DB.prepare(
    `SELECT u.id FROM users u JOIN profiles p ON p.user_id = u.id
     WHERE u.brand_id = 1 AND u.status = 'confirmed' AND p.status = 'active'
       AND p.gender = 'female' AND p.sexuality IN ('hetero', 'bi') AND p.main_photo_id IS NOT NULL AND p.fictional = 0
       AND u.id NOT IN (?1, ?2)
     ORDER BY p.country IN ('GB', 'IE') DESC, u.last_seen_at DESC LIMIT 14`,
  )
    .bind(free, premium)
    .all<{ id: string }>();
  const likersOfFree = women.slice(8, 14).map((w) => w.id);
  const likersOfPremium = women.slice(0, 8).map((w) => w.id);
  const match = likersOfPremium[0]!;

  const likes = [
    ...likersOfFree.map((liker, i) => [liker, free, i < 4, i % 3 ? "profile" : "swipe", nowS - (i + 1) * 47 * MINUTE]),
    ...likersOfPremium.map((liker, i) => [
      liker,
      premium,
      i < 5,
      i % 3 ? "profile" : "swipe",
      nowS - (i + 1) * 3 * 3600,
    ]),
    [premium, match, true, "profile", nowS - 3 * 3600 + 600], // premium@ liked her back: a match
  ] as const;

  const conversation = randomId();
  const [memberA, memberB] = [premium, match].sort();
  const times = [nowS - 2 * 3600, nowS - 2 * 3600 + 4 * MINUTE, nowS - 20 * MINUTE];
  const lastAt = times[times.length - 1]!;

  await DB.batch([
    ...insertStatements(DB, "likes", ["liker_id", "liked_id", "like_new", "source", "created_at"], likes),
    DB.prepare(
      `INSERT INTO conversations (id, member_a, member_b, started_by, created_at, last_message_at, last_message_preview)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
    ).bind(conversation, memberA, memberB, match, times[0], lastAt, PREMIUM_CHAT[PREMIUM_CHAT.length - 1]),
    ...insertStatements(
      DB,
      "conversation_members",
      ["conversation_id", "user_id", "unread", "last_activity_at"],
      [
        [conversation, premium, PREMIUM_CHAT.length, lastAt],
        [conversation, match, 0, lastAt],
      ],
    ),
    ...insertStatements(
      DB,
      "messages",
      ["conversation_id", "sender_id", "client_id", "kind", "body", "created_at", "seq"],
      PREMIUM_CHAT.map((body, i) => [conversation, match, randomId(), "text", body, times[i], i + 1]),
    ),
    // Credits change only through the ledger, in the same batch as the cached balance.
    DB.prepare("INSERT INTO credit_ledger (user_id, delta, reason, created_at) VALUES (?1, ?2, 'purchase', ?3)").bind(
      premium,
      PREMIUM_CREDITS,
      nowS - 30 * DAY,
    ),
    DB.prepare("UPDATE users SET credits = credits + ?2 WHERE id = ?1").bind(premium, PREMIUM_CREDITS),
  ]);
  return {
    likes: likes.length,
    newLikes: {
      free: likes.filter((l) => l[1] === free && l[2]).length,
      premium: likes.filter((l) => l[1] === premium && l[2]).length,
    },
    unreadForPremium: PREMIUM_CHAT.length,
  };
}

/** The provider id of the first demo payment: docs/architecture/console.md and the console's end-to-end test look a member up by it. */
export const DEMO_PAYMENT_REF = "tr_demo0001";

/**
 * A month of business for the console's dashboard (decision 177): about 90 generated members of every
 * brand bought a package on some day of the last 30, in their brand's currency, each credited through
 * the ledger in the same batch as the balance (refId: the payment); a few payments failed.
 */
export async function seedDemoPayments(DB: D1Database, nowS: number) {
  const { results: buyers } = await DB.prepare(
    `SELECT u.id, u.brand_id AS brandId, b.currency FROM users u JOIN brands b ON b.id = u.brand_id
     WHERE u.status = 'confirmed' AND u.email GLOB '*[0-9]@example.com' ORDER BY u.id LIMIT 90`,
  ).all<{ id: string; brandId: number; currency: string }>();
  const { results: prices } = await DB.prepare(
    `SELECT pp.package_id AS id, pp.currency, pp.price_cents AS cents, p.credits FROM package_prices pp
     JOIN packages p ON p.id = pp.package_id WHERE p.one_time = 0`,
  ).all<{ id: string; currency: string; cents: number; credits: number }>();
  let seed = 11;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const payments: (string | number | null)[][] = [];
  const ledger: (string | number)[][] = [];
  const credited = new Map<string, number>();
  buyers.forEach((b, i) => {
    const options = prices.filter((p) => p.currency === b.currency);
    const pkg = options[Math.floor(rnd() * options.length)]!;
    const at = nowS - Math.floor(rnd() * 30 * DAY);
    const failed = i % 11 === 5;
    const id = `demo-pay-${String(i + 1).padStart(4, "0")}`;
    payments.push([
      id,
      b.id,
      b.brandId,
      pkg.id,
      pkg.credits,
      pkg.cents,
      pkg.currency,
      i % 3 ? "creditcard" : "ideal",
      "sandbox",
      `tr_demo${String(i + 1).padStart(4, "0")}`,
      failed ? "failed" : "paid",
      failed ? null : at + 40,
      at,
      at + 40,
    ]);
    if (failed) return;
    ledger.push([b.id, pkg.credits, "purchase", id, at + 40]);
    credited.set(b.id, (credited.get(b.id) ?? 0) + pkg.credits);
  });
  await DB.batch([
    ...insertStatements(
      DB,
      "payments",
      [
        "id",
        "user_id",
        "brand_id",
        "package_id",
        "credits",
        "amount_cents",
        "currency",
        "method",
        "provider",
        "provider_ref",
        "status",
        "paid_at",
        "created_at",
        "updated_at",
      ],
      payments,
    ),
    // Credits change only through the ledger, in the same batch as the cached balance.
    ...insertStatements(DB, "credit_ledger", ["user_id", "delta", "reason", "ref_id", "created_at"], ledger),
    ...[...credited].map(([id, n]) =>
      DB.prepare("UPDATE users SET credits = credits + ?2, paid_user = 1 WHERE id = ?1").bind(id, n),
    ),
  ]);
  return { payments: payments.length };
}
