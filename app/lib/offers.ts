/**
 * The pure rules of the offers (docs/product/data.md §3, docs/product/states.md §4 and docs/product/limits.md §9), shared by the server (which decides) and
 * the members-area client code (which only counts down). No I/O here: every function takes `now`.
 */
import { WELCOME_DISCOUNT_PERCENTAGE, WELCOME_OFFER_TICK_MS } from "./constants";

/** The welcome offer's one code: its name everywhere (decision 202). */
export const WELCOME_CODE = `WELCOME${WELCOME_DISCOUNT_PERCENTAGE}`;
export const HIDE_WELCOME_OFFER_MODAL = "hide-time-bonus-modal";

/** What the rules need of a member. */
export type OfferMember = { paidUser: boolean; createdAt: number };

/**
 * Seconds of the welcome offer left (25% off the first purchase until the brand's window after sign-up
 * ends): 0 for a visitor, a paying (premium) member, or once it is over. One offer with one end: when
 * it is over no other code continues the same discount (decision 202).
 */
export function welcomeRemaining(member: OfferMember | null, welcomeDiscountS: number, nowS: number): number {
  if (!member || member.paidUser) return 0;
  const left = member.createdAt + welcomeDiscountS - nowS;
  return left > 0 ? Math.min(left, welcomeDiscountS) : 0;
}

export type ActiveDiscount = { code: string; percentage: number; expires: number; kind: "welcome" };

export function welcomeDiscount(
  member: OfferMember | null,
  welcomeDiscountS: number,
  nowS: number,
): ActiveDiscount | null {
  if (!member || welcomeRemaining(member, welcomeDiscountS, nowS) === 0) return null;
  return {
    code: WELCOME_CODE,
    percentage: WELCOME_DISCOUNT_PERCENTAGE,
    expires: member.createdAt + welcomeDiscountS,
    kind: "welcome",
  };
}

/** The active discount: the welcome offer while it runs, else none. */
export const activeDiscount = welcomeDiscount;

/** The popup: after the delay in the members area, for a member with 0 credits, offer running, not dismissed. */
export function showWelcomeOfferPopup(o: {
  remaining: number;
  credits: number;
  dismissed: boolean;
  secondsInMembersArea: number;
  delayS: number;
}) {
  return o.remaining > 0 && o.credits === 0 && !o.dismissed && o.secondsInMembersArea >= o.delayS;
}

// ---------------------------------------------------------------------------------------------
// Prices in integer cents

/**
 * A percentage as written on a code ("25", "12.5", "7.25") in hundredths of a percent; null when it
 * is not a number strictly between 0 and 100 with at most two decimals.
 */
export function percentageBasisPoints(value: string | number): number | null {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(String(value).trim());
  if (!m) return null;
  const bp = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
  return bp > 0 && bp < 10_000 ? bp : null;
}

/** The price with a percentage off, in cents; the discount is rounded half up to a whole cent. */
export function discountedPrice(priceCents: number, percentage: string | number) {
  if (!Number.isInteger(priceCents) || priceCents < 0) throw new Error(`bad price ${priceCents}`);
  const bp = percentageBasisPoints(percentage);
  if (bp === null) throw new Error(`bad percentage ${percentage}`);
  const discountCents = Math.floor((priceCents * bp + 5_000) / 10_000);
  return { originalCents: priceCents, discountCents, finalCents: priceCents - discountCents };
}

/**
 * Counts the welcome offer down on the client: `onTick` gets the seconds left at once and every
 * WELCOME_OFFER_TICK_MS; at zero it stops (the offer is over). The deadline is fixed from the
 * server's remaining seconds at load, so a wrong clock on the device changes nothing. Returns stop().
 */
export function startCountdown(remainingAtLoad: number, onTick: (secondsLeft: number) => void): () => void {
  const deadline = Date.now() + remainingAtLoad * 1000;
  const left = () => Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  onTick(left());
  if (left() === 0) return () => {};
  const timer = setInterval(() => {
    const s = left();
    onTick(s);
    if (s === 0) clearInterval(timer);
  }, WELCOME_OFFER_TICK_MS);
  return () => clearInterval(timer);
}
