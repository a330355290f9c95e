/** Business constants of docs/product/limits.md §9, named as the spec names them. */
export const LANGUAGES = ["en", "nl", "de", "it", "fr", "es", "pl", "da", "fi", "nb", "sv"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

export const LANGUAGE_COOKIE_DAYS = 365;
export const AUTH_COOKIE_DAYS = 30;

export const USER_REFETCH_INTERVAL_S = 60;
export const USER_REFETCH_INTERVAL_PUSH_S = 300;
export const USER_REFETCH_FIRST_DELAY_S = 5;

/** The welcome offer (decision 202): one code, one end (the brand's welcome window after sign-up). */
export const WELCOME_OFFER_POPUP_DELAY_S = 40;
export const WELCOME_OFFER_TICK_MS = 1000;
export const WELCOME_DISCOUNT_PERCENTAGE = 25;

export const SWIPE_LIKES_PER_DAY = 4;
export const FREE_CONVERSATIONS = 2;
export const FREE_PHOTOS = 3;
export const PREMIUM_PHOTOS = 25;
export const REACTIVATION_DAYS = 14;

export const UNREAD_BADGE_CAP = 99;
export const CREDIT_BADGE_THRESHOLD = 10;

export const CHUNK_RELOAD_GUARD_S = 60;
export const RETRIES = 5;
export const GEOLOCATION_CACHE_S = 3600;
export const AUTO_LIKE_RELOAD_DELAY_MS = 500;

export const LOADING_BAR_THROTTLE_MS = 200;
export const LOADING_BAR_DURATION_MS = 5000;
export const LOADING_BAR_HIDE_DELAY_MS = 500;

/** The chat, lander and empty layouts show the site-entry warning only in these countries. */
export const SITE_ENTRY_RESTRICTED_COUNTRIES = ["NL", "DE"];

export const TERMS_VERSION_DATE = "2023-12-01T12:00:00Z";

export const PREMIUM_TIERS = ["p0", "p1", "p2", "p3"] as const;

/** The methods of docs/product/limits.md §9; Giropay and Sofort left when Mollie retired them in 2024 (decision 090). */
export const PAYMENT_METHODS = [
  "sepa_directdebit",
  "przelewy24",
  "blik",
  "wire_transfer",
  "mastercard",
  "visa",
  "creditcard",
  "dankort",
  "mobilepay",
  "swish",
  "twint",
  "satispay",
  "vipps",
  "carte_bancaire",
  "nexi",
  "ideal",
  "bancontact",
  "applepay",
  "paysafecard",
  "maestro",
  "paypal",
  "eps",
] as const;

export const NOTIFICATION_TYPES = [
  "new_conversation",
  "new_message",
  "like",
  "unread_reminder",
  "promotions",
  "new_members",
  "news",
  "reminders",
] as const;

/**
 * Marketing mails: off until the member opts in (GDPR consent; a pre-ticked box is not consent).
 * A new member who did not tick the sign-up opt-in gets these as "user" rows of notifications_disabled
 * (decision 180). "New members" and "Reminders" advertise the service too (decision 213): off for
 * everyone until they opt in, members from before included (migration 0038).
 */
export const MARKETING_TYPES = ["promotions", "news", "new_members", "reminders"] as const;

export const INTERESTS = [
  "adventure",
  "analsex",
  "animals",
  "art",
  "astrology",
  "bbq",
  "beach",
  "beer",
  "biking",
  "bondage",
  "coffee",
  "cooking",
  "dancing",
  "exchanging_pictures",
  "fashion",
  "foodie",
  "gardening",
  "gym",
  "hiking",
  "hugging",
  "kissing",
  "lingerie",
  "massages",
  "masturbating",
  "movies",
  "music",
  "one_night_stand",
  "oral_sex",
  "outdoors",
  "party",
  "photography",
  "politics",
  "public_sex",
  "reading",
  "relationship",
  "sadomasochism",
  "safe_sex",
  "sex",
  "sex_toys",
  "shopping",
  "sports",
  "sushi",
  "tattoos",
  "tea",
  "theater",
  "threesome",
  "travelling",
  "vegetarian",
  "video_games",
  "wine",
] as const;

/** Niche number (brand setting) to landing variant. */
export const NICHES = { 1: "general", 2: "she", 3: "bdsm", 4: "bbw", 5: "gilf", 6: "milf", 7: "gay" } as const;
export type Niche = (typeof NICHES)[keyof typeof NICHES];

export const BREAKPOINTS = { sm: 576, md: 768, lg: 992, xl: 1200 } as const;
