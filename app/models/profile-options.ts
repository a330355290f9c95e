/**
 * Constants of the members area that both the server and the browser need (option codes, age
 * bounds, distances, upload size). Not a .server module, so route components may import it.
 * Labels live in locales/<lng>/members.json.
 */
export const GENDERS = ["male", "female"] as const;
export const SEXUALITIES = ["hetero", "gay", "lesbian", "bi"] as const;
// The seed draws demo profiles from these same lists (db/seed/profile-options.ts re-exports them).
export const HAIR_COLOURS = ["blond", "brown", "black", "red", "grey", "bald"] as const;
export const EYE_COLOURS = ["blue", "green", "brown", "grey", "hazel"] as const;
export const BODY_TYPES = ["slim", "athletic", "average", "curvy", "plus_size", "muscular"] as const;
export const RELATIONSHIP_STATUSES = [
  "single",
  "divorced",
  "widowed",
  "separated",
  "open_relationship",
  "married",
] as const;
export const TATTOOS = ["none", "one", "few", "many"] as const;
export const SIGNUP_REASONS = ["fun", "flirt", "chat", "friendship", "relationship", "adventure"] as const;

export const CHOICE_FIELDS = {
  hair_colour: HAIR_COLOURS,
  eye_colour: EYE_COLOURS,
  body_type: BODY_TYPES,
  relationship_status: RELATIONSHIP_STATUSES,
  tattoos: TATTOOS,
  signup_reason: SIGNUP_REASONS,
} as const;
export type ChoiceField = keyof typeof CHOICE_FIELDS;

/** Search and match-finder age bounds. */
export const MIN_AGE = 18;
export const MAX_AGE = 99;
export const AGES = Array.from({ length: MAX_AGE - MIN_AGE + 1 }, (_, i) => MIN_AGE + i);

export const DISTANCES_KM = [10, 25, 50, 100, 250] as const;

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** The search's distance filter choices, in km around the member's own city (decision 180). */
export const DISTANCES = [10, 25, 50, 100, 250] as const;
