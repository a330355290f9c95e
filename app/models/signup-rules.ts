/**
 * Sign-up rules of docs/product/roles.md §6 that need no zod: the sign-up modal in every page's chrome and
 * the landing page use them, and the landing page's JavaScript budget has no room for the form libraries.
 */

export const PASSWORD_MIN = 8;
export const NAME_MIN = 2;
export const NAME_MAX = 30;
export const SIGNUP_MESSAGE_MAX = 1000;

export type SignupSetting = "all" | "with_trafficsource" | "other";
/** Tracking data of docs/product/data.md §3 (network, ref, sub1–sub3) plus the lb query parameter. */
export const TRACKING_KEYS = ["network", "ref", "sub1", "sub2", "sub3", "lb"] as const;
export type Tracking = Record<(typeof TRACKING_KEYS)[number], string | null>;

export const NO_TRACKING: Tracking = { network: null, ref: null, sub1: null, sub2: null, sub3: null, lb: null };

/** Tracking data from a query string, a form that carried it along, or the first-touch cookie. */
export function trackingFrom(params: URLSearchParams | FormData): Tracking {
  const pick = (k: string) => {
    const v = params.get(k);
    // Printable text only, at most 100 characters: partners' ids, never markup or control characters.
    const clean =
      typeof v === "string"
        ? v
            .replace(/[\u0000-\u001f\u007f<>"'`]/g, "")
            .trim()
            .slice(0, 100)
        : "";
    return clean || null;
  };
  return Object.fromEntries(TRACKING_KEYS.map((k) => [k, pick(k)])) as Tracking;
}

export const hasTracking = (t: Tracking) => TRACKING_KEYS.some((k) => t[k]);

/** The hidden fields or query string that carry tracking data to /signup. */
export const trackingEntries = (t: Tracking) =>
  TRACKING_KEYS.flatMap((k) => (t[k] ? [[k, t[k]!] as [string, string]] : []));

export type SignupState = "open" | "needs_source" | "invite_only";

/**
 * docs/product/roles.md §6, the one rule every sign-up form and the header honour: `all` is open,
 * `with_trafficsource` is open when a traffic source (network or ref) is present, anything else is
 * invite-only. sub1–sub3 and lb describe a campaign, not a source, so they open nothing on their own.
 */
export function signupAllowed(setting: SignupSetting, tracking: Pick<Tracking, "network" | "ref">): SignupState {
  if (setting === "all") return "open";
  if (setting === "with_trafficsource") return tracking.network || tracking.ref ? "open" : "needs_source";
  return "invite_only";
}

/**
 * What a closed sign-up says, everywhere (landing, /signup, landers): one reason per state, a title and
 * its text, so no page says "sign up free in a minute" while another says "only through partners".
 */
export function closedSignupKeys(state: Exclude<SignupState, "open">) {
  return state === "needs_source"
    ? { title: "landing:signup.partnersTitle", text: "account:signup.needsSource" }
    : { title: "landing:signup.closedTitle", text: "account:signup.inviteOnly" };
}

/** Whom a new member looks for; with their gender it gives the profile's sexuality. */
export const SEEKING = ["female", "male", "both"] as const;
export type Seeking = (typeof SEEKING)[number];
export type Gender = "male" | "female";

export function sexualityOf(gender: Gender, seeking: Seeking): "hetero" | "gay" | "lesbian" | "bi" {
  if (seeking === "both") return "bi";
  if (seeking === gender) return gender === "male" ? "gay" : "lesbian";
  return "hetero";
}

/**
 * What the sign-up form preselects per niche (1–7 as its slug). The gay niche decides both answers,
 * so its form asks neither; every other niche asks, with its audience's usual answer preselected.
 */
export const NICHE_WHO: Record<
  "general" | "she" | "bdsm" | "bbw" | "gilf" | "milf" | "gay",
  { gender: Gender; seeking: Seeking; fixed: boolean }
> = {
  general: { gender: "male", seeking: "female", fixed: false },
  she: { gender: "male", seeking: "female", fixed: false },
  bdsm: { gender: "male", seeking: "female", fixed: false },
  bbw: { gender: "male", seeking: "female", fixed: false },
  gilf: { gender: "male", seeking: "female", fixed: false },
  milf: { gender: "male", seeking: "female", fixed: false },
  gay: { gender: "male", seeking: "male", fixed: true },
};
