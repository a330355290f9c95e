/**
 * Partners' tracking data (network, ref, sub1–sub3, lb), kept from the first tracked visit in a
 * first-party cookie for 30 days: first touch wins, so a later visit with other parameters (or none)
 * never takes the sign-up away from the partner who brought the visitor.
 */
import { readCookie } from "~/lib/cookies.server";
import { nicheOf, type BrandWithCompany } from "./brand.server";
import {
  hasTracking,
  NICHE_WHO,
  NO_TRACKING,
  signupAllowed,
  trackingEntries,
  trackingFrom,
  type SignupSetting,
  type SignupState,
  type Tracking,
} from "./signup-rules";

export const TRACKING_COOKIE = "trk";
export const TRACKING_COOKIE_DAYS = 30;

function fromCookie(request: Request): Tracking | null {
  const raw = readCookie(request, TRACKING_COOKIE);
  if (!raw) return null;
  const t = trackingFrom(new URLSearchParams(raw));
  return hasTracking(t) ? t : null;
}

/**
 * The Set-Cookie header for a page request that carries tracking data while no earlier tracked
 * visit is remembered; null otherwise (first touch wins).
 */
export function firstTouchCookie(request: Request): string | null {
  if (request.method !== "GET" || fromCookie(request)) return null;
  const t = trackingFrom(new URL(request.url).searchParams);
  if (!hasTracking(t)) return null;
  const value = encodeURIComponent(new URLSearchParams(trackingEntries(t)).toString());
  return `${TRACKING_COOKIE}=${value}; Max-Age=${TRACKING_COOKIE_DAYS * 86_400}; Path=/; HttpOnly; Secure; SameSite=Lax`;
}

/**
 * The visitor's tracking data: the first-touch cookie; without it (cookies off, or this very request
 * set it) the form that carried the data along, else the page's query.
 */
export function visitorTracking(request: Request, form?: FormData): Tracking {
  const cookie = fromCookie(request);
  if (cookie) return cookie;
  if (form) {
    const t = trackingFrom(form);
    if (hasTracking(t)) return t;
  }
  const q = trackingFrom(new URL(request.url).searchParams);
  return hasTracking(q) ? q : NO_TRACKING;
}

/** What every sign-up form and the header need: may this visitor sign up, and what to carry along. */
export function signupContext(request: Request, setting: SignupSetting): { state: SignupState; tracking: Tracking } {
  const tracking = visitorTracking(request);
  return { state: signupAllowed(setting, tracking), tracking };
}

/** A lander's or member landing's form: the rule's answer, the tracking to carry, the niche's answers. */
export function signupForm(request: Request, brand: BrandWithCompany, profileId?: string) {
  return { ...signupContext(request, brand.signups), who: NICHE_WHO[nicheOf(brand)], profileId };
}
