/**
 * The profile option codes the seed draws from: the app's own lists (app/models/profile-options.ts),
 * so demo data always has labels in the locale files.
 */
export {
  BODY_TYPES,
  EYE_COLOURS,
  HAIR_COLOURS,
  RELATIONSHIP_STATUSES,
  SIGNUP_REASONS,
  TATTOOS,
} from "../../app/models/profile-options.ts";
import type {
  BODY_TYPES,
  EYE_COLOURS,
  HAIR_COLOURS,
  RELATIONSHIP_STATUSES,
  SIGNUP_REASONS,
  TATTOOS,
} from "../../app/models/profile-options.ts";

export type HairColour = (typeof HAIR_COLOURS)[number];
export type EyeColour = (typeof EYE_COLOURS)[number];
export type BodyType = (typeof BODY_TYPES)[number];
export type RelationshipStatus = (typeof RELATIONSHIP_STATUSES)[number];
export type Tattoos = (typeof TATTOOS)[number];
export type SignupReason = (typeof SIGNUP_REASONS)[number];
