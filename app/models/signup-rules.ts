/**
 * Sign-up rules of SPEC section 6 that need no zod: the sign-up modal in every page's chrome and
 * the landing page use them, and the landing page's JavaScript budget has no room for the form libraries.
 */

export const PASSWORD_MIN = 8;
export const NAME_MIN = 2;
export const NAME_MAX = 30;
export const SIGNUP_MESSAGE_MAX = 1000;

export type SignupSetting = "all" | "with_trafficsource" | "other";
export interface Tracking {
  network: string | null;
  ref: string | null;
  sub1: string | null;
  sub2: string | null;
  sub3: string | null;
}

export const TRACKING_KEYS = ["network", "ref", "sub1", "sub2", "sub3"] as const;

/** Tracking data of SPEC section 3, from a query string or the form that carried it along. */
export function trackingFrom(params: URLSearchParams | FormData): Tracking {
  const pick = (k: string) => {
    const v = params.get(k);
    return typeof v === "string" && v.trim() ? v.trim().slice(0, 100) : null;
  };
  return { network: pick("network"), ref: pick("ref"), sub1: pick("sub1"), sub2: pick("sub2"), sub3: pick("sub3") };
}

/** SPEC section 6: all, or with_trafficsource when network or ref is present; anything else is invite-only. */
export function signupAllowed(setting: SignupSetting, tracking: Pick<Tracking, "network" | "ref">): "open" | "needs_source" | "invite_only" {
  if (setting === "all") return "open";
  if (setting === "with_trafficsource") return tracking.network || tracking.ref ? "open" : "needs_source";
  return "invite_only";
}

