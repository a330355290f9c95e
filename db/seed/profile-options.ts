/**
 * Codes stored in the profile columns (hair_colour, eye_colour, …). The seed uses them and the
 * profile editor offers them; their labels live in the locale files, keyed by code.
 */
export const HAIR_COLOURS = ["blond", "brown", "black", "red", "grey", "bald"] as const;
export const EYE_COLOURS = ["blue", "green", "brown", "grey", "hazel"] as const;
export const BODY_TYPES = ["slim", "athletic", "average", "curvy", "plus_size", "muscular"] as const;
export const RELATIONSHIP_STATUSES = ["single", "divorced", "widowed", "separated", "open_relationship", "married"] as const;
export const TATTOOS = ["none", "one", "few", "many"] as const;
export const SIGNUP_REASONS = ["fun", "flirt", "chat", "friendship", "relationship", "adventure"] as const;

export type HairColour = (typeof HAIR_COLOURS)[number];
export type EyeColour = (typeof EYE_COLOURS)[number];
export type BodyType = (typeof BODY_TYPES)[number];
export type RelationshipStatus = (typeof RELATIONSHIP_STATUSES)[number];
export type Tattoos = (typeof TATTOOS)[number];
export type SignupReason = (typeof SIGNUP_REASONS)[number];
