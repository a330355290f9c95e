/**
 * The D1 schema (drizzle). One file so a newcomer sees every table at once; each area's rules live
 * in app/models/<area>.server.ts. Money is in cents, credits are integers, ids in URLs are random.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const now = sql`(unixepoch())`;
const json = <T>(name: string) => text(name, { mode: "json" }).$type<T>();

export const companies = sqliteTable("companies", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  address: text("address").notNull(),
  kvk: text("kvk").notNull(),
  city: text("city").notNull(),
  country: text("country").notNull(),
  tradenames: json<string[]>("tradenames").notNull(),
  vatNumbers: json<string[]>("vat_numbers").notNull(),
  supportPhone: text("support_phone").notNull(),
  /** Percentage offered to a member about to delete their account. */
  deleteDiscount: integer("delete_discount").notNull().default(0),
  /** ISO date the company details were added; later than the terms date moves the terms version. */
  added: text("added").notNull(),
  /**
   * The company's own Mollie account (decision 206): the name of its secret, MOLLIE_API_KEY_<account>
   * (A–Z, 0–9, _). Null: no account, so production refuses its brands.
   */
  mollieAccount: text("mollie_account").unique(),
  /**
   * The Impressum of German and Austrian brands (decision 213): the register court (§ 5 DDG), the
   * managing directors, the youth-protection officer and how to reach them (§ 7 JMStV), and whether
   * the company takes part in consumer dispute resolution (§ 36 VSBG; "willing" names its board).
   */
  registerCourt: text("register_court").notNull().default(""),
  managingDirectors: text("managing_directors").notNull().default(""),
  youthOfficerName: text("youth_officer_name").notNull().default(""),
  youthOfficerEmail: text("youth_officer_email").notNull().default(""),
  youthOfficerPhone: text("youth_officer_phone").notNull().default(""),
  disputeResolution: text("dispute_resolution", { enum: ["", "unwilling", "willing"] })
    .notNull()
    .default(""),
  disputeBoard: text("dispute_board").notNull().default(""),
});

/** A brand: one hostname with its own name, niche, language and rules (docs/product/data.md §3 "Settings"). */
/** Photo review (decision 175): a brand reviews new photos before others see them, or after. */
export const PHOTO_REVIEW_MODES = ["before", "after"] as const;
export type PhotoReviewMode = (typeof PHOTO_REVIEW_MODES)[number];
/** A photo's review state. A rejection is a remove_photo decision, which today deletes the photo and its files. */
export const PHOTO_REVIEW_STATES = ["pending", "approved", "rejected"] as const;
export type PhotoReviewState = (typeof PHOTO_REVIEW_STATES)[number];

/** Where a brand asks a proof of age (decision 185). */
export const AGE_CHECK_MODES = ["off", "before_members_area", "before_photos"] as const;
export type AgeCheckMode = (typeof AGE_CHECK_MODES)[number];

export const brands = sqliteTable("brands", {
  id: integer("id").primaryKey(),
  hostname: text("hostname").notNull().unique(),
  isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
  name: text("name").notNull(),
  domain: text("domain").notNull(),
  domainLanguage: text("domain_language").notNull(),
  cdnPrefix: text("cdn_prefix").notNull().default(""),
  niche: integer("niche").notNull(),
  indexTitle: text("index_title").notNull(),
  description: text("description").notNull(),
  signups: text("signups", { enum: ["all", "with_trafficsource", "other"] })
    .notNull()
    .default("all"),
  loggedOutSearch: text("logged_out_search", { enum: ["none", "other"] })
    .notNull()
    .default("other"),
  loggedOutSearchTrafficsource: text("logged_out_search_trafficsource", { enum: ["none", "other"] })
    .notNull()
    .default("other"),
  supportPhone: text("support_phone").notNull(),
  supportEmail: text("support_email").notNull(),
  pushPublicKey: text("push_public_key").notNull().default(""),
  enableSiteEntryPopup: integer("enable_site_entry_popup", { mode: "boolean" }).notNull().default(true),
  /** Countries where the site-entry warning is shown. */
  siteEntryCountries: json<string[]>("site_entry_countries").notNull(),
  fictionalIcon: text("fictional_icon").notNull().default(""),
  fictionalWarning: text("fictional_warning").notNull().default(""),
  fictionalSingular: text("fictional_singular").notNull().default(""),
  fictionalPlural: text("fictional_plural").notNull().default(""),
  countries: json<string[]>("countries").notNull(),
  minimumMessageCosts: json<Record<string, { costs: number; currency: string }>>("minimum_message_costs").notNull(),
  visibleProfileFields: json<string[]>("visible_profile_fields").notNull(),
  visibleProfileNotes: integer("visible_profile_notes", { mode: "boolean" }).notNull().default(false),
  messageCredits: integer("message_credits").notNull(),
  signupCredits: integer("signup_credits").notNull(),
  photoCredits: integer("photo_credits").notNull(),
  giftCredits: integer("gift_credits").notNull(),
  messageLength: integer("message_length").notNull(),
  searchFields: json<string[]>("search_fields").notNull(),
  refundDays: integer("refund_days").notNull(),
  memberResell: integer("member_resell", { mode: "boolean" }).notNull().default(false),
  companyId: integer("company_id")
    .notNull()
    .references(() => companies.id),
  /** The brand's website profile in its company's Mollie account (pfl_…), where the company has several. */
  mollieProfileId: text("mollie_profile_id"),
  mailName: text("mail_name").notNull(),
  minAge: integer("min_age").notNull().default(18),
  /** Days of chat history a member can still see; older messages are hidden for privacy. */
  chatHistoryDays: integer("chat_history_days").notNull().default(90),
  /** A member's paid message to a team-run profile unanswered this long gets its credits back (decision 201). */
  teamReplyHours: integer("team_reply_hours").notNull().default(24),
  /** Extra phrases a team reply may not contain (one per line, any language), beside the built-in lists. */
  teamPhrases: text("team_phrases").notNull().default(""),
  /** How long after sign-up the welcome discount (25% off the first purchase) stays valid, in seconds. */
  welcomeDiscountS: integer("welcome_discount_s").notNull().default(604800),
  /** Most a member may pay by SEPA direct debit in one calendar month (UTC), in cents of the brand's currency. */
  directdebitMonthlyLimitCents: integer("directdebit_monthly_limit_cents").notNull().default(30000),
  /**
   * Mollie approved this brand's own direct debit form (a typed IBAN and an SMS code, mandates made with
   * POST /mandates). Off: direct debit starts with a first payment by the member's bank (iDEAL,
   * Bancontact, EPS), from which Mollie makes a verified mandate (decision 208).
   */
  sepaIbanForm: integer("sepa_iban_form", { mode: "boolean" }).notNull().default(false),
  /** ISO 4217 currency the brand sells in: its package prices (package_prices) and payments. */
  currency: text("currency").notNull().default("EUR"),
  /** The cams promo block (docs/product/screens.md §2) in the members area; off by default (decision 160). */
  camsPromoEnabled: integer("cams_promo_enabled", { mode: "boolean" }).notNull().default(false),
  /**
   * Its settings, checked by app/models/cams-promo.server.ts (anything invalid counts as off): the
   * partner's https URL, the tracking parameters added to it, where it shows ("search", "chats"),
   * and the niches and countries it is never shown to.
   */
  camsPromo: json<{
    url: string;
    params: Record<string, string>;
    placements: string[];
    excludedNiches: string[];
    excludedCountries: string[];
  }>("cams_promo"),
  /**
   * Photo review (decision 175): "before" shows a new photo to others only once a moderator
   * approved it (its owner sees it at once); "after" shows it at once and still queues it for review.
   */
  photoReview: text("photo_review", { enum: PHOTO_REVIEW_MODES }).notNull().default("before"),
  /**
   * Age assurance (decision 185): "before_members_area" asks a proof of 18+ before everything
   * but the public pages, "before_photos" before unblurred/private photos and the chat; only for
   * visitors from `age_check_countries`; a proof is honoured `age_check_days` days.
   */
  ageCheck: text("age_check", { enum: AGE_CHECK_MODES }).notNull().default("off"),
  ageCheckCountries: json<string[]>("age_check_countries").notNull().default([]),
  ageCheckDays: integer("age_check_days").notNull().default(365),
  /**
   * The brand runs team-run profiles (decision 212): its copy then presents a chat and flirt
   * entertainment service and never promises dates or meetings (the `_entertainment` locale variants).
   */
  runsTeamProfiles: integer("runs_team_profiles", { mode: "boolean" }).notNull().default(false),
});

/** Clicks on a brand's cams promo, counted per day and placement (decision 160). */
export const camsPromoClicks = sqliteTable(
  "cams_promo_clicks",
  {
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id),
    /** UTC day, YYYY-MM-DD. */
    day: text("day").notNull(),
    placement: text("placement").notNull(),
    clicks: integer("clicks").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.brandId, t.day, t.placement] })],
);

export const regions = sqliteTable(
  "regions",
  {
    id: integer("id").primaryKey(),
    country: text("country").notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    /** The name in the site's languages where the data has it: {"de":"Bayern",…} (decision 133). */
    names: text("names").notNull().default("{}"),
  },
  (t) => [uniqueIndex("regions_country_code").on(t.country, t.code)],
);

/** European cities for the offline reverse geocoder (GeoNames data, see README attribution). */
export const cities = sqliteTable(
  "cities",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    country: text("country").notNull(),
    regionCode: text("region_code").notNull(),
    lat: real("lat").notNull(),
    lon: real("lon").notNull(),
    population: integer("population").notNull().default(0),
  },
  (t) => [
    index("cities_lat_lon").on(t.lat, t.lon),
    index("cities_country_region").on(t.country, t.regionCode),
    // A team reply naming a town as the persona's home is checked against the table by name (decision 210).
    index("cities_name").on(t.name),
  ],
);

export const interests = sqliteTable("interests", {
  id: text("id").primaryKey(),
  sort: integer("sort").notNull(),
});

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    paidUser: integer("paid_user", { mode: "boolean" }).notNull().default(false),
    credits: integer("credits").notNull().default(0),
    language: text("language").notNull().default("en"),
    status: text("status", { enum: ["not_confirmed", "confirmed"] })
      .notNull()
      .default("not_confirmed"),
    invisible: integer("invisible", { mode: "boolean" }).notNull().default(false),
    failedLogins: integer("failed_logins").notNull().default(0),
    blockedUntil: integer("blocked_until"),
    deletedAt: integer("deleted_at"),
    deleteReason: text("delete_reason"),
    deleteRemarks: text("delete_remarks"),
    network: text("network"),
    ref: text("ref"),
    sub1: text("sub1"),
    sub2: text("sub2"),
    sub3: text("sub3"),
    /** The lb query parameter of the first tracked visit (docs/product/data.md §3), kept with the tracking data. */
    lb: text("lb"),
    /** The first message written on the sign-up form (docs/product/data.md §3, "Sign-up form"), and the profile it was for. */
    signupMessage: text("signup_message"),
    signupProfileId: text("signup_profile_id"),
    pushSubscribed: integer("push_subscribed", { mode: "boolean" }).notNull().default(false),
    /** Set by support after a reversed or fraudulent direct debit: the member may not pay by direct debit. */
    directdebitBlocked: integer("directdebit_blocked", { mode: "boolean" }).notNull().default(false),
    /** A moderation suspension or ban (decision 167): no login until then (a ban: far in the future). */
    suspendedUntil: integer("suspended_until"),
    /** A moderation decision "restrict messaging for N days" (decision 173): no message or gift sent until then. */
    messagingRestrictedUntil: integer("messaging_restricted_until"),
    createdAt: integer("created_at").notNull().default(now),
    lastSeenAt: integer("last_seen_at").notNull().default(now),
    /**
     * When the member's wallet (their MemberHub, decision 189) imported this row's credits and
     * credit_ledger; null: not yet (the wallet migration pages through these). From then on
     * `credits` is a copy the wallet writes, never read to decide a spend.
     */
    walletAt: integer("wallet_at"),
  },
  (t) => [
    uniqueIndex("users_brand_email").on(t.brandId, t.email),
    // The wallet migration's pages: only the members not yet imported.
    index("users_wallet_pending")
      .on(t.id)
      .where(sql`wallet_at IS NULL`),
    index("users_deleted_at").on(t.deletedAt),
    // Recently active members first (the landing strip) without sorting the whole table.
    index("users_recent").on(t.deletedAt, t.lastSeenAt),
    // The console (decision 177): sign-ups per day on the dashboard, the member search by e-mail across brands.
    // Covering (brand, status): the dashboard's grouped sign-up read never touches the table rows.
    index("users_created").on(t.createdAt, t.brandId, t.status),
    index("users_email").on(t.email),
    // Campaigns page through a brand's members by id (decision 183) and count an audience before sending.
    index("users_brand_id").on(t.brandId, t.id),
  ],
);

export const profiles = sqliteTable(
  "profiles",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** "suspended": a moderation decision (suspension or ban) hides the member everywhere (decision 167). */
    status: text("status", { enum: ["active", "disabled", "suspended"] })
      .notNull()
      .default("active"),
    gender: text("gender", { enum: ["male", "female"] }).notNull(),
    sexuality: text("sexuality", { enum: ["hetero", "gay", "lesbian", "bi"] })
      .notNull()
      .default("hetero"),
    dateOfBirth: text("date_of_birth").notNull(),
    country: text("country").notNull(),
    region: text("region").notNull().default(""),
    city: text("city").notNull().default(""),
    /** Exact position never leaves the server: only used for distance, shown as city. */
    lat: real("lat"),
    lon: real("lon"),
    aboutMe: text("about_me").notNull().default(""),
    hairColour: text("hair_colour"),
    eyeColour: text("eye_colour"),
    bodyType: text("body_type"),
    relationshipStatus: text("relationship_status"),
    tattoos: text("tattoos"),
    signupReason: text("signup_reason"),
    mainPhotoId: text("main_photo_id"),
    fictional: integer("fictional", { mode: "boolean" }).notNull().default(false),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [
    index("profiles_search").on(t.status, t.gender, t.country, t.dateOfBirth),
    index("profiles_search_region").on(t.status, t.country, t.region, t.gender, t.dateOfBirth),
    // The console's member search by name (a prefix range, decision 177).
    index("profiles_name").on(t.name),
  ],
);

export const profileInterests = sqliteTable(
  "profile_interests",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    interestId: text("interest_id")
      .notNull()
      .references(() => interests.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.interestId] }), index("profile_interests_interest").on(t.interestId)],
);

export const photos = sqliteTable(
  "photos",
  {
    /** Random, unguessable; R2 keys derive from it. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    isPrivate: integer("is_private", { mode: "boolean" }).notNull().default(false),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    createdAt: integer("created_at").notNull().default(now),
    /**
     * Review state (decision 175). The default is "pending" so a photo written by any path waits for
     * a moderator; the rows that existed before review were approved by a data migration.
     */
    review: text("review", { enum: PHOTO_REVIEW_STATES }).notNull().default("pending"),
  },
  (t) => [
    index("photos_user").on(t.userId, t.createdAt),
    // The review queue: pending photos, oldest first (keyset on created_at, id).
    index("photos_review").on(t.review, t.createdAt, t.id),
  ],
);

/** Server-side sessions: the cookie carries a signed random id, the table its SHA-256. */
export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
    userAgent: text("user_agent").notNull().default(""),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

/** Single-use e-mailed links: activation, password reset, e-mail change, reactivation. */
export const tokens = sqliteTable(
  "tokens",
  {
    idHash: text("id_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["activate", "reset", "mail_change", "mail_undo", "reactivate"] }).notNull(),
    payload: text("payload"),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("tokens_user_kind").on(t.userId, t.kind)],
);

/**
 * A sign-up waiting for its address to be confirmed (decision 224): nothing of it is an account yet, so
 * its answer cannot differ from a known address's. The mailed link carries a random token; only its
 * SHA-256 is kept, with what the form collected (JSON; the password only as its hash). Purged a day
 * after it expires.
 */
export const signupRequests = sqliteTable(
  "signup_requests",
  {
    idHash: text("id_hash").primaryKey(),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    payload: text("payload").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("signup_requests_email").on(t.brandId, t.email), index("signup_requests_expires").on(t.expiresAt)],
);

/** Exact business quotas (failed logins, reset mails a day, swipe likes a day). */
export const counters = sqliteTable("counters", {
  key: text("key").primaryKey(),
  count: integer("count").notNull().default(0),
  expiresAt: integer("expires_at").notNull(),
});

export const likes = sqliteTable(
  "likes",
  {
    likerId: text("liker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    likedId: text("liked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    likeNew: integer("like_new", { mode: "boolean" }).notNull().default(true),
    source: text("source", { enum: ["profile", "swipe", "auto", "finder"] })
      .notNull()
      .default("profile"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.likerId, t.likedId] }), index("likes_liked").on(t.likedId, t.createdAt)],
);

export const swipePasses = sqliteTable(
  "swipe_passes",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    targetId: text("target_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.targetId] })],
);

export const blocks = sqliteTable(
  "blocks",
  {
    blockerId: text("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: text("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index("blocks_blocked").on(t.blockedId)],
);

export const reports = sqliteTable("reports", {
  id: integer("id").primaryKey(),
  reporterId: text("reporter_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  reportedId: text("reported_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  reason: text("reason").notNull(),
  remarks: text("remarks").notNull().default(""),
  createdAt: integer("created_at").notNull().default(now),
});

export const conversations = sqliteTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    /** The two members, ordered (memberA < memberB) so a pair has one conversation. */
    memberA: text("member_a")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    memberB: text("member_b")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    startedBy: text("started_by").notNull(),
    createdAt: integer("created_at").notNull().default(now),
    lastMessageAt: integer("last_message_at"),
    lastMessagePreview: text("last_message_preview"),
  },
  (t) => [
    uniqueIndex("conversations_pair").on(t.memberA, t.memberB),
    index("conversations_started_by").on(t.startedBy),
  ],
);

/** A member's view of a conversation: unread count, hidden (deleted) state. */
export const conversationMembers = sqliteTable(
  "conversation_members",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    unread: integer("unread").notNull().default(0),
    hiddenAt: integer("hidden_at"),
    lastActivityAt: integer("last_activity_at").notNull().default(now),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.userId] }),
    index("conversation_members_user").on(t.userId, t.lastActivityAt),
  ],
);

export const messages = sqliteTable(
  "messages",
  {
    id: integer("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    senderId: text("sender_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Client message id: a retried send is stored and charged once. */
    clientId: text("client_id").notNull(),
    kind: text("kind", { enum: ["text", "gift"] })
      .notNull()
      .default("text"),
    body: text("body").notNull(),
    giftId: text("gift_id"),
    creditsCharged: integer("credits_charged").notNull().default(0),
    /** Held until the sender confirms their e-mail address. */
    held: integer("held", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull().default(now),
    /** The message's number within its conversation (1, 2, 3…): the id clients see, never the global `id` (decision 089). */
    seq: integer("seq").notNull().default(0),
  },
  (t) => [
    uniqueIndex("messages_client").on(t.conversationId, t.senderId, t.clientId),
    index("messages_conversation").on(t.conversationId, t.id),
    index("messages_seq").on(t.conversationId, t.seq),
    // The console dashboard's messages sent per period (decision 177).
    index("messages_created").on(t.createdAt),
  ],
);

/**
 * Messages sent per brand and day (days since 1970, UTC): the console dashboard's count. The
 * conversations' objects keep the messages (decision 190) and add to this in their coalesced write.
 */
export const chatMessageDays = sqliteTable(
  "chat_message_days",
  {
    brandId: integer("brand_id").notNull(),
    day: integer("day").notNull(),
    messages: integer("messages").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.brandId, t.day] })],
);

/** Append-only: every change of a member's credits, written in the same batch as users.credits. */
export const creditLedger = sqliteTable(
  "credit_ledger",
  {
    id: integer("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    /** chargeback_reversed: the bank reversed a chargeback, so what it took comes back. */
    reason: text("reason", {
      enum: [
        "signup",
        "purchase",
        "message",
        "gift",
        "photo",
        "refund",
        "adjustment",
        "chargeback",
        "chargeback_reversed",
        // A paid message to a team-run profile unanswered within the brand's reply window (decision 201).
        "noreply",
      ],
    }).notNull(),
    refId: text("ref_id"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("credit_ledger_user").on(t.userId, t.id)],
);

/**
 * The one-time moves that have finished (decision 194): `messages` (D1's messages all in their
 * rooms) and `credit_ledger` (every member's balance and ledger in their wallet). The next release's
 * migration that drops those tables refuses to run unless both rows are here.
 */
export const dataMoves = sqliteTable("data_moves", {
  name: text("name", { enum: ["messages", "credit_ledger"] }).primaryKey(),
  doneAt: integer("done_at").notNull(),
});

/**
 * Wallet changes that must follow a D1 change exactly once (decision 189): written in the same batch
 * as the guarded status change (a payment paid, a refund failed, a chargeback), then applied to the
 * member's wallet by `key` and marked applied; the queue and the hourly cron apply what is left.
 * kind: apply (delta, clamp), cancel (gives back what `key` took), reverse (gives back the latest
 * chargeback of ref_id). result: the delta the wallet recorded; refused: a spend it did not cover.
 */
export const walletOutbox = sqliteTable(
  "wallet_outbox",
  {
    id: integer("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["apply", "cancel", "reverse"] }).notNull(),
    key: text("key").notNull(),
    delta: integer("delta").notNull(),
    reason: text("reason").notNull(),
    refId: text("ref_id"),
    clamp: integer("clamp", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull().default(now),
    appliedAt: integer("applied_at"),
    result: integer("result"),
    refused: integer("refused", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    index("wallet_outbox_user").on(t.userId, t.id),
    index("wallet_outbox_pending")
      .on(t.id)
      .where(sql`applied_at IS NULL`),
  ],
);

/**
 * A credit package. What it costs is in package_prices (one price per currency); price_cents and
 * currency here are its original EUR price, copied there by migration 0005 and no longer read.
 */
export const packages = sqliteTable("packages", {
  id: text("id").primaryKey(),
  tier: text("tier", { enum: ["p0", "p1", "p2", "p3"] }).notNull(),
  credits: integer("credits").notNull(),
  priceCents: integer("price_cents").notNull(),
  currency: text("currency").notNull().default("EUR"),
  /** A try-out package (the delete-account offer): bought once per member, not listed with the tiers. */
  oneTime: integer("one_time", { mode: "boolean" }).notNull().default(false),
});

export const payments = sqliteTable(
  "payments",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id),
    packageId: text("package_id")
      .notNull()
      .references(() => packages.id),
    credits: integer("credits").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    method: text("method").notNull(),
    transactionFeeCents: integer("transaction_fee_cents").notNull().default(0),
    provider: text("provider", { enum: ["sandbox", "mollie"] }).notNull(),
    providerRef: text("provider_ref"),
    /**
     * charged_back: the bank reversed a paid payment; its credits were taken back (as far as the balance allowed).
     * checking: the provider's answer to the create call was lost (timeout, 5xx): the webhook or a queued
     * re-check of the provider's own record decides; nothing is credited or charged again meanwhile.
     */
    status: text("status", {
      enum: ["open", "checking", "pending", "paid", "failed", "canceled", "expired", "refunded", "charged_back"],
    })
      .notNull()
      .default("open"),
    discountCodeId: integer("discount_code_id"),
    /** The package price before a discount; null when none applied (amountCents is what was charged). */
    originalAmountCents: integer("original_amount_cents"),
    /** oneoff, first (creates a mandate for repeat orders) or recurring (charged on mandateId). */
    sequenceType: text("sequence_type", { enum: ["oneoff", "first", "recurring"] })
      .notNull()
      .default("oneoff"),
    customerId: text("customer_id"),
    mandateId: text("mandate_id"),
    /** The country whose methods were offered (the member's payment country). */
    paymentCountry: text("payment_country"),
    /** The provider's hosted checkout while the payment is open. */
    checkoutUrl: text("checkout_url"),
    /** A card's failure reason, or the SEPA bank's reason code (AM04, MD01, …) of a refused direct debit. */
    failureReason: text("failure_reason"),
    /** The bank's own words for a refused direct debit (Mollie's details.bankReason), for support. */
    bankReason: text("bank_reason"),
    /** What the bank took back (the provider's amountChargedBack), once the chargeback is applied. */
    chargedBackCents: integer("charged_back_cents"),
    /** Credits of the charged-back purchase that were already spent, so could not be taken back. */
    chargebackUnrecoveredCredits: integer("chargeback_unrecovered_credits"),
    paidAt: integer("paid_at"),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
    /**
     * The click that started it (the pay form's one-time token, or the direct debit request): unique,
     * so a double click or a replayed post finds this payment instead of charging again; also the
     * provider's Idempotency-Key. Null on payments made before it existed.
     */
    intentKey: text("intent_key"),
    /**
     * Set when the provider's record and ours disagree (a paid payment we had marked failed, a payment
     * paid here that the provider calls failed, a refund we cannot place): what, for finance, with when.
     * Cleared by nobody: the console lists every payment that has one.
     */
    providerAlert: text("provider_alert"),
    providerAlertAt: integer("provider_alert_at"),
    /** When we last asked the provider about this payment ourselves (the return page once, the sweep). */
    providerCheckedAt: integer("provider_checked_at"),
    /** The payer's country as the provider saw it (Mollie's countryCode: card or bank country); EU VAT evidence. */
    providerCountry: text("provider_country"),
    /** What the provider settles to us for it (Mollie's settlementAmount), in minor units of settlementCurrency. */
    settlementCents: integer("settlement_cents"),
    settlementCurrency: text("settlement_currency"),
    /** The provider account (its company's, decision 206) the payment was made in: every later call uses it. */
    providerAccount: text("provider_account"),
    /** Finance marked the provider alert dealt with: when, by whom, and what was done. */
    providerAlertDealtAt: integer("provider_alert_dealt_at"),
    providerAlertDealtBy: text("provider_alert_dealt_by"),
    providerAlertNote: text("provider_alert_note"),
  },
  (t) => [
    index("payments_user").on(t.userId, t.createdAt),
    // The console's "provider disagrees" list.
    index("payments_provider_alert").on(t.providerAlertAt),
    index("payments_provider_ref").on(t.provider, t.providerRef),
    uniqueIndex("payments_intent_key").on(t.intentKey),
    // The console dashboard (decision 177): revenue by the day it was paid, chargebacks by when they came.
    // Covering: the dashboard's revenue and paying-member reads over 30 days are index-only.
    index("payments_paid").on(t.paidAt, t.brandId, t.currency, t.amountCents, t.userId),
    index("payments_status_updated").on(t.status, t.updatedAt),
    // The console's payments list (decision 178): newest first, keyset (created_at, id), all brands or one.
    index("payments_created").on(t.createdAt, t.id),
    index("payments_brand_created").on(t.brandId, t.createdAt, t.id),
    // The accounting export: a brand's payments by the month they were paid in.
    index("payments_brand_paid").on(t.brandId, t.paidAt),
    // A code's uses and revenue (the console, the total-uses guard of the payment insert).
    index("payments_discount_code").on(t.discountCodeId, t.status),
  ],
);

export const discountCodes = sqliteTable("discount_codes", {
  id: integer("id").primaryKey(),
  code: text("code").notNull().unique(),
  valuePercentage: text("value_percentage").notNull(),
  minimumOrderValue: integer("minimum_order_value"),
  /** The payment countries it applies in: one ISO code or several, comma-separated ("DE,AT"); null = any (decision 178). */
  country: text("country"),
  userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
  expires: integer("expires"),
  currency: text("currency").notNull().default("EUR"),
  status: text("status", { enum: ["active", "disabled"] })
    .notNull()
    .default("active"),
  oncePerUser: integer("once_per_user", { mode: "boolean" }).notNull().default(true),
  paymentmethods: json<string[]>("paymentmethods"),
  /** At most this many payments in all (open, pending or completed) carry the code; null = no total (decision 178). */
  maxUses: integer("max_uses"),
  /** Made in the console (decision 178); null for codes older than it. */
  createdAt: integer("created_at"),
  /** The brands it is valid on: brand ids, comma-separated ("1,3"); null = every brand (decision 227). */
  brandIds: text("brand_ids"),
});

export const discountRedemptions = sqliteTable(
  "discount_redemptions",
  {
    codeId: integer("code_id")
      .notNull()
      .references(() => discountCodes.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    paymentId: text("payment_id").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.codeId, t.userId] })],
);

/** A row per notification type a member does not receive, and why. */
export const notificationsDisabled = sqliteTable(
  "notifications_disabled",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    reason: text("reason", { enum: ["user", "spam_complaint", "bounce", "list_unsubscribe"] })
      .notNull()
      .default("user"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type] })],
);

export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: integer("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("push_subscriptions_user").on(t.userId)],
);

/** Every mail sent outside production also lands here, readable at /dev/outbox. */
export const mailOutbox = sqliteTable("mail_outbox", {
  id: integer("id").primaryKey(),
  brandId: integer("brand_id"),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  html: text("html").notNull(),
  /** Extra headers (List-Unsubscribe…), so tests and /dev/outbox can see them. */
  headers: json<Record<string, string>>("headers"),
  createdAt: integer("created_at").notNull().default(now),
});

// ─── Payments (decision 090): methods per country, provider customers, refunds, the local sandbox ───

/**
 * Which payment methods are offered in a country, in the order people there use them. Data, not
 * code: a row per (country, method); country "*" lists the methods for every other country.
 * Schemes that no longer exist stay in the table switched off.
 */
export const paymentMethods = sqliteTable(
  "payment_methods",
  {
    country: text("country").notNull(),
    /** Our method id (PAYMENT_METHODS in app/lib/constants.ts). */
    method: text("method").notNull(),
    /** The provider's method id (Mollie: ideal, creditcard, banktransfer, directdebit, …). */
    providerMethod: text("provider_method").notNull(),
    sort: integer("sort").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** Comma-separated ISO currencies the method accepts; null means any. */
    currencies: text("currencies"),
  },
  (t) => [primaryKey({ columns: [t.country, t.method] })],
);

/** A member's customer at the provider (needed for first/recurring payments and mandates). */
export const paymentCustomers = sqliteTable(
  "payment_customers",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["sandbox", "mollie"] }).notNull(),
    /**
     * The account the customer lives in (decision 206): never used with another company's key. A member
     * whose brand moved to another company gets a new customer there, which replaces this row.
     */
    account: text("account").notNull().default(""),
    customerId: text("customer_id").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.provider] })],
);

/**
 * A member whose payments the bank charged back: no repeat orders or direct debits on a mandate until
 * support clears the hold in the console (audited). One row per member; clearing deletes it.
 */
export const paymentHolds = sqliteTable("payment_holds", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** The charged-back payment that set it. */
  paymentId: text("payment_id").notNull(),
  createdAt: integer("created_at").notNull().default(now),
});

/**
 * A Mollie settlement (a payout to the company's bank account) as imported from its Settlements API
 * (decision 209): its total and Mollie's fees, then its payments, refunds and chargebacks as lines
 * reconciled against ours.
 */
export const settlements = sqliteTable(
  "settlements",
  {
    /** Mollie's stl_ id. */
    id: text("id").primaryKey(),
    reference: text("reference"),
    status: text("status").notNull(),
    /** The month imported for ("YYYY-MM", UTC), by when Mollie created the settlement. */
    month: text("month").notNull(),
    currency: text("currency").notNull(),
    /** What is paid out (Mollie's amount): revenue less refunds, chargebacks and fees. */
    amountCents: integer("amount_cents").notNull(),
    /** Mollie's fees in it (the costs of its periods, gross), and their VAT. */
    feesCents: integer("fees_cents").notNull(),
    feesVatCents: integer("fees_vat_cents").notNull(),
    settledAt: integer("settled_at"),
    createdAt: integer("created_at").notNull(),
    importedAt: integer("imported_at").notNull(),
  },
  (t) => [index("settlements_month").on(t.month)],
);

/** One payment, refund or chargeback of a settlement, and how it compares with our record. */
export const settlementLines = sqliteTable(
  "settlement_lines",
  {
    settlementId: text("settlement_id")
      .notNull()
      .references(() => settlements.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["payment", "refund", "chargeback"] }).notNull(),
    /** Mollie's id of it (tr_, re_, chb_). */
    providerRef: text("provider_ref").notNull(),
    /** Our payment it belongs to (a refund's or chargeback's payment too); null when we have none. */
    paymentId: text("payment_id"),
    /** What Mollie settled for it (negative for refunds and chargebacks), in the settlement's currency. */
    settledCents: integer("settled_cents").notNull(),
    /** What our record says it should be, in the same currency and sign; null when we have none. */
    expectedCents: integer("expected_cents"),
    /** ok: as ours; differs: another amount; unknown: not ours (or not found). */
    state: text("state", { enum: ["ok", "differs", "unknown"] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.settlementId, t.providerRef] }), index("settlement_lines_payment").on(t.paymentId)],
);

/** A refund of the unused credits of one paid payment. */
export const refunds = sqliteTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    credits: integer("credits").notNull(),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    providerRef: text("provider_ref"),
    /** checking: the provider's answer was lost (timeout, 5xx); the credits stay taken until its record says. */
    status: text("status", { enum: ["checking", "queued", "pending", "processing", "refunded", "failed", "canceled"] })
      .notNull()
      .default("queued"),
    createdAt: integer("created_at").notNull().default(now),
    /** When the provider first said `refunded` (the money went back): the accounting export's date for it. */
    refundedAt: integer("refunded_at"),
  },
  (t) => [
    index("refunds_payment").on(t.paymentId),
    // The console dashboard's refunds per period (decision 177).
    index("refunds_created").on(t.createdAt),
  ],
);

/**
 * The local sandbox provider's own state (payments, customers, mandates, refunds as JSON), as a real
 * provider would keep it on its side. Never used in production.
 */
export const sandboxObjects = sqliteTable(
  "sandbox_objects",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["payment", "customer", "mandate", "refund"] }).notNull(),
    /** The account (API key) that made it: another account's calls do not find it, as at Mollie. */
    account: text("account").notNull().default(""),
    /** The customer of a mandate or payment, the payment of a refund. */
    parentId: text("parent_id"),
    /** The idempotency key of the request that created it. */
    idempotencyKey: text("idempotency_key"),
    data: text("data").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    index("sandbox_objects_parent").on(t.kind, t.parentId),
    uniqueIndex("sandbox_objects_idempotency").on(t.account, t.kind, t.idempotencyKey),
  ],
);

// ─── Direct debit and SMS (decision 101) ───────────────────────────────────────────────────────

/** Every SMS sent outside production lands here, readable at /dev/sms (like mail_outbox for mail). */
export const smsOutbox = sqliteTable("sms_outbox", {
  id: integer("id").primaryKey(),
  brandId: integer("brand_id"),
  to: text("to").notNull(),
  body: text("body").notNull(),
  createdAt: integer("created_at").notNull().default(now),
});

/**
 * A direct debit order waiting for (or past) its SMS code: the form's details, the package, and the
 * code as an HMAC (never the code itself), with its expiry, failed attempts and sends.
 * After the mandate is made the IBAN is kept masked only.
 */
export const directdebitRequests = sqliteTable(
  "directdebit_requests",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id),
    packageId: text("package_id")
      .notNull()
      .references(() => packages.id),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    holder: text("holder").notNull(),
    iban: text("iban").notNull(),
    country: text("country").notNull(),
    street: text("street").notNull(),
    houseNumber: text("house_number").notNull(),
    postalCode: text("postal_code").notNull(),
    city: text("city").notNull(),
    mobile: text("mobile").notNull(),
    codeHash: text("code_hash").notNull(),
    codeExpiresAt: integer("code_expires_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    sends: integer("sends").notNull().default(1),
    lastSentAt: integer("last_sent_at").notNull(),
    status: text("status", { enum: ["open", "verified", "done", "canceled"] })
      .notNull()
      .default("open"),
    paymentId: text("payment_id"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("directdebit_requests_user").on(t.userId, t.createdAt)],
);

// ─── Brand currencies (decision 095, local prices) ────────────────────────────────────────────────────

/**
 * The price of a package in one currency (a local price, not a conversion). A brand sells in its
 * `currency`; a package without a price in it is not sold on that brand.
 */
export const packagePrices = sqliteTable(
  "package_prices",
  {
    packageId: text("package_id")
      .notNull()
      .references(() => packages.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    priceCents: integer("price_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.packageId, t.currency] })],
);

/**
 * A package's own price on one brand (decision 227), in that brand's currency: it wins over the shared
 * price of package_prices there. A package with brand prices only is sold on those brands only.
 */
export const packageBrandPrices = sqliteTable(
  "package_brand_prices",
  {
    packageId: text("package_id")
      .notNull()
      .references(() => packages.id, { onDelete: "cascade" }),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    priceCents: integer("price_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.packageId, t.brandId] }), index("package_brand_prices_brand").on(t.brandId)],
);

// ---------------------------------------------------------------------------------------------
// Notifications (i10)

/**
 * What was sent, one row per member, event and channel ("new_message:<conversation>:<id>:mail"):
 * a queue retry or a second cron run claims the key first and never sends twice.
 */
export const notificationLog = sqliteTable(
  "notification_log",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    sentAt: integer("sent_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("notification_log_sent").on(t.sentAt)],
);

/** Keys the Worker makes for itself outside production (the development VAPID pair). */
export const appKeys = sqliteTable("app_keys", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
});
// ─── Offers (decision 112): paid features ───

/** A private photo a member unlocked for the brand's photo_credits: charged once, then served full size to them. */
export const photoUnlocks = sqliteTable(
  "photo_unlocks",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    photoId: text("photo_id")
      .notNull()
      .references(() => photos.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.userId, t.photoId] })],
);

// ─── Trust and safety (decision 167): the operator console ───

/** The console's roles (decision 167): what each may open is OPERATOR_AREAS in app/models/admin/operators.server.ts. */
export const OPERATOR_ROLES = ["moderator", "support", "finance", "chat_team", "admin"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Staff are not members: their own accounts, login, sessions and second factor. */
export const operators = sqliteTable(
  "operators",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: OPERATOR_ROLES }).notNull(),
    /** The members' password hashing (app/lib/password.ts). */
    passwordHash: text("password_hash").notNull(),
    /** RFC 6238 key, base64; required in production (a login without it is refused there). */
    totpSecret: text("totp_secret"),
    /** The last 30-second step a code was accepted for: a code works once. */
    totpLastStep: integer("totp_last_step").notNull().default(0),
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    failedLogins: integer("failed_logins").notNull().default(0),
    blockedUntil: integer("blocked_until"),
    /** Made or reset in the console with a one-time password: the console opens only to choose a new one. */
    mustChangePassword: integer("must_change_password", { mode: "boolean" }).notNull().default(false),
    /** Made in the console or second factor reset: the console opens only to enrol a TOTP key. */
    mustEnrolTotp: integer("must_enrol_totp", { mode: "boolean" }).notNull().default(false),
    /**
     * The brands a chat team member works for (decision 211): their inbox, conversations and team-run
     * profiles are these brands' only. Null: every brand (the admin; a chat team member nobody limited).
     */
    brandIds: text("brand_ids", { mode: "json" }).$type<number[]>(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("operators_email").on(t.email)],
);

/** Operator sessions, separate from members' (own cookie on /admin only, own table). */
export const operatorSessions = sqliteTable(
  "operator_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    operatorId: text("operator_id")
      .notNull()
      .references(() => operators.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
    userAgent: text("user_agent").notNull().default(""),
  },
  (t) => [index("operator_sessions_operator").on(t.operatorId)],
);

export const APPROVAL_STATUSES = ["pending", "approved", "rejected", "failed"] as const;

/**
 * A console action above its threshold (a credits grant, a refund, a campaign's size) waiting for a
 * second admin (decision 216): what would be done (`kind`, `params`), its impact as shown, who asked.
 * Applied once, by another admin, through a guarded status change.
 */
export const consoleApprovals = sqliteTable(
  "console_approvals",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    params: json<Record<string, unknown>>("params").notNull(),
    impact: text("impact").notNull(),
    requestedBy: text("requested_by").notNull(),
    requestedAt: integer("requested_at").notNull().default(now),
    status: text("status", { enum: APPROVAL_STATUSES }).notNull().default("pending"),
    decidedBy: text("decided_by"),
    decidedAt: integer("decided_at"),
  },
  (t) => [index("console_approvals_status").on(t.status, t.requestedAt)],
);

/**
 * Every operator action, append-only (triggers refuse UPDATE and DELETE), written in the same D1
 * batch as the change it records. Operators are never deleted (disabled instead), so `operator_id` stays meaningful.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull().default(now),
    operatorId: text("operator_id").notNull(),
    role: text("role").notNull(),
    action: text("action").notNull(),
    targetType: text("target_type").notNull().default(""),
    targetId: text("target_id").notNull().default(""),
    reason: text("reason").notNull().default(""),
    before: json<Record<string, unknown>>("before"),
    after: json<Record<string, unknown>>("after"),
  },
  (t) => [
    index("audit_log_at").on(t.at),
    index("audit_log_operator").on(t.operatorId, t.at),
    index("audit_log_target").on(t.targetType, t.targetId, t.at),
  ],
);

// ─── Trust and safety (decision 167): notice and action ───

/** Report categories as the DSA Transparency Database groups them, most severe first (the queue's order). */
export const REPORT_CATEGORIES = ["minor", "ncii", "illegal", "scam", "harassment", "fake", "spam", "other"] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number];

/**
 * A case: everything reported about one target (a member's profile, a photo, a message) while it is
 * open; a new notice about the same target joins the open case (one open case per target).
 */
export const moderationCases = sqliteTable(
  "moderation_cases",
  {
    id: text("id").primaryKey(),
    brandId: integer("brand_id").notNull(),
    targetType: text("target_type", { enum: ["member", "photo", "message"] }).notNull(),
    /** member: user id; photo: photo id; message: "<conversation id>:<seq>". */
    targetId: text("target_id").notNull(),
    /** The member the target belongs to (who a decision would restrict). */
    memberId: text("member_id").notNull(),
    /** The most severe category among its notices (index into REPORT_CATEGORIES: lower is more severe). */
    severity: integer("severity").notNull(),
    status: text("status", { enum: ["open", "closed"] })
      .notNull()
      .default("open"),
    /** The automated rule that opened or raised it, if any (scam and spam signals). */
    flaggedBy: text("flagged_by"),
    openedAt: integer("opened_at").notNull().default(now),
    closedAt: integer("closed_at"),
    /** The operator who took the case (the queue's "mine" and "unassigned"); null: nobody yet. */
    assignedTo: text("assigned_to"),
  },
  (t) => [
    uniqueIndex("moderation_cases_open_target")
      .on(t.targetType, t.targetId)
      .where(sql`status = 'open'`),
    index("moderation_cases_queue").on(t.status, t.severity, t.openedAt),
    index("moderation_cases_member").on(t.memberId, t.openedAt),
    // The shared queue (decision 218): one brand's cases, and an operator's own, in the queue's order.
    index("moderation_cases_brand_queue").on(t.brandId, t.status, t.severity, t.openedAt),
    index("moderation_cases_assigned").on(t.assignedTo, t.status, t.severity, t.openedAt),
  ],
);

/** A notice (DSA Art. 16): one report by a member or a visitor (then with an e-mail address for the answer). */
export const notices = sqliteTable(
  "notices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    caseId: text("case_id")
      .notNull()
      .references(() => moderationCases.id),
    reporterId: text("reporter_id"),
    reporterEmail: text("reporter_email"),
    category: text("category", { enum: REPORT_CATEGORIES }).notNull(),
    explanation: text("explanation").notNull().default(""),
    goodFaith: integer("good_faith", { mode: "boolean" }).notNull().default(false),
    language: text("language").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    index("notices_case").on(t.caseId),
    uniqueIndex("notices_case_reporter").on(t.caseId, t.reporterId),
    // The transparency report counts by month (decision 176).
    index("notices_at").on(t.createdAt),
    // A reporter's record (decision 225): a member's notices, a visitor's by address.
    index("notices_reporter").on(t.reporterId, t.createdAt),
    index("notices_reporter_email").on(t.reporterEmail, t.createdAt),
  ],
);

/**
 * A measure against a reporter who frequently submits manifestly unfounded notices (DSA Art. 23,
 * decision 225): a warning first, then a suspension of the processing of their notices until
 * `ends_at` (it ends by itself), which an operator may lift early. A member is named by id and the
 * address they had; a visitor by address. Every measure is audited and mailed to the reporter.
 */
export const reporterMeasures = sqliteTable(
  "reporter_measures",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["warning", "suspension"] }).notNull(),
    reporterId: text("reporter_id"),
    reporterEmail: text("reporter_email"),
    /** Why, as the reporter is told (in their language). */
    reason: text("reason").notNull(),
    days: integer("days"),
    startsAt: integer("starts_at").notNull(),
    /** A suspension's end; null for a warning. */
    endsAt: integer("ends_at"),
    operatorId: text("operator_id").notNull(),
    liftedAt: integer("lifted_at"),
    liftedBy: text("lifted_by"),
    liftReason: text("lift_reason"),
  },
  (t) => [
    index("reporter_measures_reporter").on(t.reporterId, t.startsAt),
    index("reporter_measures_email").on(t.reporterEmail, t.startsAt),
  ],
);

/**
 * A notice received while its reporter's notices are not processed (decision 225): kept for the
 * reporter's record, never joined to a case. Notices alleging illegal content (minors, intimate
 * images without consent, illegal content) are processed whatever the suspension and never land here.
 */
export const setAsideNotices = sqliteTable(
  "set_aside_notices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    measureId: text("measure_id").notNull(),
    brandId: integer("brand_id").notNull(),
    targetType: text("target_type", { enum: ["member", "photo", "message"] }).notNull(),
    targetId: text("target_id").notNull(),
    memberId: text("member_id").notNull(),
    reporterId: text("reporter_id"),
    reporterEmail: text("reporter_email"),
    category: text("category", { enum: REPORT_CATEGORIES }).notNull(),
    explanation: text("explanation").notNull().default(""),
    language: text("language").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    index("set_aside_notices_reporter").on(t.reporterId, t.createdAt),
    index("set_aside_notices_email").on(t.reporterEmail, t.createdAt),
  ],
);

/** The automated rules that open or raise a case (decision 176); SIGNALS in app/models/signals.server.ts tunes them. */
export const FLAG_RULES = [
  "new_account_burst",
  "same_text",
  "contact_details",
  "payment_request",
  "disposable_email",
  "repeated_reports",
] as const;
export type FlagRule = (typeof FLAG_RULES)[number];

/**
 * An automated flag (decision 176): which rule fired on a case and what it saw. Once per rule and
 * case; a flag never restricts anyone, it only puts the case before an operator.
 */
export const caseFlags = sqliteTable(
  "case_flags",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    caseId: text("case_id")
      .notNull()
      .references(() => moderationCases.id),
    rule: text("rule", { enum: FLAG_RULES }).notNull(),
    /** What fired it, for the moderator ("6 members in 10 min", "iban"); never message text of others. */
    detail: text("detail").notNull().default(""),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("case_flags_case_rule").on(t.caseId, t.rule), index("case_flags_at").on(t.createdAt)],
);

/** The decisions an operator can take on a case (decision 167). */
export const DECISION_ACTIONS = [
  "no_action",
  "remove_photo",
  "remove_profile_text",
  // Content decisions (decision 205): a message leaves both members' views; a display name is reset.
  "remove_message",
  "reset_name",
  "restrict_messaging",
  "suspend",
  "ban",
] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

/**
 * A decision on a case, and with it the statement of reasons (DSA Art. 17) the member gets: what
 * was restricted, the facts, the rule (a section of the terms), whether automated means detected it.
 */
export const decisions = sqliteTable(
  "decisions",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id")
      .notNull()
      .references(() => moderationCases.id),
    memberId: text("member_id").notNull(),
    operatorId: text("operator_id").notNull(),
    action: text("action", { enum: DECISION_ACTIONS }).notNull(),
    /** The section of the terms that was broken (TERMS_RULES in moderation.server.ts); "" for no action. */
    rule: text("rule").notNull().default(""),
    facts: text("facts").notNull(),
    /** Suspension or messaging restriction length; null otherwise. */
    days: integer("days"),
    endsAt: integer("ends_at"),
    /** The case was opened by an automated signal (the statement says so). */
    automatedDetection: integer("automated_detection", { mode: "boolean" }).notNull().default(false),
    /** What was removed, to restore it if an appeal reverses the decision. */
    removed: json<Record<string, unknown>>("removed"),
    createdAt: integer("created_at").notNull().default(now),
    /** Set when an appeal reversed it (decision 174): it no longer restricts anyone. */
    reversedAt: integer("reversed_at"),
    /**
     * The facts as published in the EU Transparency Database (decision 205): written apart from the
     * member's statement, without personal data (DSA Art. 24(5)). Empty for decisions before it.
     */
    publicFacts: text("public_facts").notNull().default(""),
    /** The legal provision an illegal-content decision rests on (LEGAL_GROUNDS in app/models/dsa-database.ts). */
    legalGround: text("legal_ground").notNull().default(""),
  },
  (t) => [
    index("decisions_member").on(t.memberId, t.createdAt),
    index("decisions_case").on(t.caseId),
    // The transparency report and its export read a month (decision 176).
    index("decisions_at").on(t.createdAt),
  ],
);

/**
 * A photo removed by a decision that an appeal could still reverse (decision 174): the row leaves
 * `photos` (so no list, URL or variant knows it) and waits here, files kept in R2, until the appeal
 * window ends; the daily cron then deletes the files and the row. Minor and non-consensual intimate
 * imagery never lands here: those are deleted at once.
 */
export const heldPhotos = sqliteTable(
  "held_photos",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    decisionId: text("decision_id").notNull(),
    isPrivate: integer("is_private", { mode: "boolean" }).notNull().default(false),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    createdAt: integer("created_at").notNull(),
    /** It was the profile's main photo: a reversal makes it main again. */
    wasMain: integer("was_main", { mode: "boolean" }).notNull().default(false),
    heldUntil: integer("held_until").notNull(),
  },
  (t) => [index("held_photos_until").on(t.heldUntil), index("held_photos_user").on(t.userId)],
);

/**
 * An appeal against a decision (DSA Art. 20, decision 174), the internal complaint-handling system:
 * filed from the statement within APPEAL_WINDOW_DAYS, at most one per decision, decided by an
 * operator other than the one who took the decision, never automatically.
 */
export const appeals = sqliteTable(
  "appeals",
  {
    id: text("id").primaryKey(),
    decisionId: text("decision_id")
      .notNull()
      .references(() => decisions.id),
    memberId: text("member_id").notNull(),
    explanation: text("explanation").notNull(),
    language: text("language").notNull(),
    status: text("status", { enum: ["open", "upheld", "reversed"] })
      .notNull()
      .default("open"),
    createdAt: integer("created_at").notNull().default(now),
    operatorId: text("operator_id"),
    reasons: text("reasons"),
    decidedAt: integer("decided_at"),
    /** Random per outcome: the later statements of the outcome's batch run only if this batch set it. */
    outcomeRef: text("outcome_ref"),
    /**
     * 0: the member's appeal against a restriction; otherwise the notice whose reporter appeals a
     * decision to take no action (DSA Art. 20(1), decision 219): one appeal per member or notice.
     */
    noticeId: integer("notice_id").notNull().default(0),
  },
  (t) => [
    uniqueIndex("appeals_decision_notice").on(t.decisionId, t.noticeId),
    index("appeals_queue").on(t.status, t.createdAt),
  ],
);

/**
 * Each statement of reasons on its way to the EU DSA Transparency Database (decision 218): queued
 * when the decision is taken, sent by the DSA_QUEUE consumer (retried with backoff), refused with
 * the database's errors, failed with the last error once the retries ran out. The database's answer is kept as it came.
 */
export const dsaSubmissions = sqliteTable(
  "dsa_submissions",
  {
    decisionId: text("decision_id").primaryKey(),
    // failed: the queue's tries ran out (decision 225); the case offers to send it again.
    status: text("status", { enum: ["queued", "sent", "refused", "failed"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    /** The last error: the database's validation errors, or why it could not be reached. */
    error: text("error"),
    /** The database's id of the statement once created. */
    uuid: text("uuid"),
    /** The database's last answer: HTTP status and body (clipped). */
    response: text("response"),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [index("dsa_submissions_status").on(t.status, t.updatedAt)],
);

/**
 * Evidence (DSA Art. 18, decision 218): a photo removed as showing a minor or intimate imagery without
 * consent is copied to its own R2 bucket (EVIDENCE) before it is deleted, kept until `retain_until`
 * for the authorities, shown to the admin only (each view audited), then deleted by the daily cron
 * (the deletion audited; the row stays, marked deleted).
 */
export const evidence = sqliteTable(
  "evidence",
  {
    id: text("id").primaryKey(),
    caseId: text("case_id").notNull(),
    decisionId: text("decision_id").notNull(),
    memberId: text("member_id").notNull(),
    photoId: text("photo_id").notNull(),
    /** The report category it was removed for (minor or ncii). */
    category: text("category").notNull(),
    /** Its key in the EVIDENCE bucket. */
    objectKey: text("object_key").notNull(),
    contentType: text("content_type").notNull(),
    bytes: integer("bytes").notNull(),
    createdAt: integer("created_at").notNull().default(now),
    retainUntil: integer("retain_until").notNull(),
    deletedAt: integer("deleted_at"),
  },
  (t) => [index("evidence_case").on(t.caseId), index("evidence_retain").on(t.deletedAt, t.retainUntil)],
);

/** To whom a case was reported, and when (DSA Art. 18, decision 218): police, a national hotline, other. */
export const ESCALATION_RECIPIENTS = ["police", "hotline", "other"] as const;
export const escalations = sqliteTable(
  "escalations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    caseId: text("case_id").notNull(),
    operatorId: text("operator_id").notNull(),
    recipientType: text("recipient_type", { enum: ESCALATION_RECIPIENTS }).notNull(),
    /** Who exactly (e.g. "Polizei Berlin, LKA 4", "INHOPE hotline jugendschutz.net"). */
    recipient: text("recipient").notNull(),
    /** Their file number, if they gave one. */
    reference: text("reference").notNull().default(""),
    /** When it was reported to them. */
    reportedAt: integer("reported_at").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("escalations_case").on(t.caseId)],
);

// ─── Age assurance (decision 185) ───

/**
 * The only thing kept of a proof of age: this member (or this visitor's browser, `subject` "v:" + the
 * hash of its cookie) proved 18+ at `proved_at` by `method`, honoured until `valid_until`. No
 * attestation, no identifier of the wallet or the document.
 */
export const ageProofs = sqliteTable("age_proofs", {
  /** The member id, or "v:" + SHA-256 of a visitor's age cookie. */
  subject: text("subject").primaryKey(),
  method: text("method").notNull(),
  provedAt: integer("proved_at").notNull(),
  validUntil: integer("valid_until").notNull(),
});

/**
 * A pending OpenID4VP request: `id` is its `state` (with the flow's suffix, walletState), the nonce is
 * good once (pending → used/refused, guarded). A refusal keeps only its reason, so the member can be
 * told after "Continue". An answer to the same-device link waits as `answered` until the browser the
 * wallet sends back brings its response_code (decision 198).
 */
export const ageRequests = sqliteTable(
  "age_requests",
  {
    id: text("id").primaryKey(),
    nonce: text("nonce").notNull(),
    subject: text("subject").notNull(),
    brandId: integer("brand_id").notNull(),
    country: text("country").notNull(),
    /** Where the member returns afterwards (a same-site path). */
    next: text("next").notNull().default("/members"),
    status: text("status", { enum: ["pending", "answered", "used", "refused"] })
      .notNull()
      .default("pending"),
    reason: text("reason"),
    /** SHA-256 (base64) of the response_code an `answered` request waits for; cleared when used. */
    responseCode: text("response_code"),
    /** The Digital Credentials API path's reader key for this request (private JWK, ISO 18013-7 Annex C): gone with the request. */
    dcKey: text("dc_key"),
    createdAt: integer("created_at").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("age_requests_subject").on(t.subject, t.createdAt), index("age_requests_expiry").on(t.expiresAt)],
);

/**
 * Trusted age attestation providers' certificates (DER, base64: their CAs or document signers) from the
 * Commission's list; empty until fetched. `next_update` is the list's NextUpdate: a list not replaced
 * by then is used for a grace period only (decision 198).
 */
export const ageTrustedRoots = sqliteTable("age_trusted_roots", {
  id: text("id").primaryKey(),
  der: text("der").notNull(),
  fetchedAt: integer("fetched_at").notNull(),
  nextUpdate: integer("next_update"),
});

/** Checks started, passed and refused per brand, country and UTC day (the console's dashboard). */
export const ageCheckCounts = sqliteTable(
  "age_check_counts",
  {
    brandId: integer("brand_id").notNull(),
    country: text("country").notNull(),
    day: text("day").notNull(),
    started: integer("started").notNull().default(0),
    passed: integer("passed").notNull().default(0),
    refused: integer("refused").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.brandId, t.country, t.day] })],
);

// ─── The console's campaigns (decision 183) ───

export const CAMPAIGN_STATUSES = ["draft", "scheduled", "sending", "paused", "done"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
export type CampaignTexts = Partial<Record<string, string>>;

/**
 * A promotion or news an operator writes in the brand's languages and sends to an audience. Sending
 * pages through the audience by user id (`cursor`, the last id handled), one queue message per page;
 * every status change is guarded on the status before it. Counters: mails sent, members skipped
 * (switched off, invisible, suspended, not activated, deleted), mails failed after the last retry.
 */
export const campaigns = sqliteTable(
  "campaigns",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    brandId: integer("brand_id")
      .notNull()
      .references(() => brands.id),
    type: text("type", { enum: ["promotions", "news"] }).notNull(),
    /** The once-only key in notification_log is `<type>:<ref>:mail`: `c<id>` from the console, the script's own ref from the API. */
    ref: text("ref"),
    /** Subject and text per language ({"de": "…"}); empty: the standard translated texts (the API's campaigns). */
    title: json<CampaignTexts>("title").notNull(),
    body: json<CampaignTexts>("body").notNull(),
    path: text("path").notNull().default("/"),
    language: text("language"),
    country: text("country"),
    plan: text("plan", { enum: ["all", "free", "premium"] })
      .notNull()
      .default("all"),
    activeDays: integer("active_days"),
    status: text("status", { enum: CAMPAIGN_STATUSES }).notNull().default("draft"),
    sendAt: integer("send_at"),
    cursor: text("cursor"),
    sent: integer("sent").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    /** An operator id, or "api" for POST /api/admin/campaign. */
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [index("campaigns_due").on(t.status, t.sendAt), index("campaigns_brand").on(t.brandId, t.id)],
);

// ─── The team behind the team-run profiles (decision 201) ───

/**
 * One row per conversation between a member and a team-run profile, written by the conversation's
 * object with its overview (app/chat/room.ts): whether the member waits for an answer and since when,
 * and what they spent there. The console's inbox reads it; claims live here too.
 */
export const teamConversations = sqliteTable(
  "team_conversations",
  {
    conversationId: text("conversation_id")
      .primaryKey()
      .references(() => conversations.id, { onDelete: "cascade" }),
    brandId: integer("brand_id").notNull(),
    profileId: text("profile_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    memberId: text("member_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    language: text("language").notNull().default(""),
    /** The member's first message after the profile's last reply (null: answered, nothing waits). */
    waitingSince: integer("waiting_since"),
    waitingSeq: integer("waiting_seq"),
    /** Credits the member spent in this conversation (messages and gifts). */
    credits: integer("credits").notNull().default(0),
    /** The operator answering it now, and since when (a claim lapses after CLAIM_IDLE_S). */
    claimedBy: text("claimed_by"),
    claimedAt: integer("claimed_at"),
    /** The profile's first message here (the dashboard's first-reply time). */
    firstReplyAt: integer("first_reply_at"),
    /** The member's oldest paid, unanswered message whose credits have not gone back (null: none). */
    refundFrom: integer("refund_from"),
    /** Credits given back here after the brand's reply window passed without an answer. */
    creditsReturned: integer("credits_returned").notNull().default(0),
  },
  (t) => [
    // The inbox: only waiting rows, longest wait first; the refund cron walks the same index.
    index("team_conversations_waiting")
      .on(t.waitingSince)
      .where(sql`waiting_since IS NOT NULL`),
    // The reply window's cron: only rows with credits that may have to go back, oldest first.
    index("team_conversations_refund")
      .on(t.refundFrom)
      .where(sql`refund_from IS NOT NULL`),
    index("team_conversations_member").on(t.memberId),
    index("team_conversations_profile").on(t.profileId),
  ],
);

/**
 * The dashboard's reply figures (decision 210): one row per team reply that answered a waiting member
 * (`reply`: how long the member waited, how many paid messages it answered, how many in the brand's
 * window, how many of those had been given back) and per conversation whose unanswered paid messages
 * went back (`return`). Written beside the audit row / by the cron, never per member message.
 */
export const teamEvents = sqliteTable(
  "team_events",
  {
    id: integer("id").primaryKey(),
    kind: text("kind", { enum: ["reply", "return"] }).notNull(),
    brandId: integer("brand_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    /** The team member who replied (null for a return). */
    operatorId: text("operator_id"),
    at: integer("at").notNull(),
    /** Seconds from the member's first unanswered message to this reply. */
    waited: integer("waited"),
    /** Paid messages answered (reply) or given back (return). */
    paid: integer("paid").notNull().default(0),
    /** Of a reply's paid messages, those answered within the brand's window. */
    paidInTime: integer("paid_in_time").notNull().default(0),
    /** Of a reply's paid messages, those already given back before it (counted once, as returned). */
    paidReturned: integer("paid_returned").notNull().default(0),
    credits: integer("credits").notNull().default(0),
  },
  (t) => [index("team_events_brand_at").on(t.brandId, t.at)],
);

/** What the team must keep consistent about a team-run profile, and the languages it answers in. */
export const teamPersonas = sqliteTable("team_personas", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  notes: text("notes").notNull().default(""),
  /** Comma-separated language codes the profile answers in. */
  languages: text("languages").notNull().default(""),
  retiredAt: integer("retired_at"),
  updatedAt: integer("updated_at").notNull().default(now),
});

/** The team's notes about a member ("works nights"), shared by every team-run profile of the brand. */
export const teamMemberNotes = sqliteTable("team_member_notes", {
  memberId: text("member_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  notes: text("notes").notNull().default(""),
  updatedBy: text("updated_by").notNull(),
  updatedAt: integer("updated_at").notNull().default(now),
});
