import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WELCOME_OFFER_POPUP_DELAY_S } from "../../app/lib/constants";
import {
  activeDiscount,
  discountedPrice,
  percentageBasisPoints,
  showWelcomeOfferPopup,
  startCountdown,
  welcomeRemaining,
  WELCOME_CODE,
} from "../../app/lib/offers";

const SIGNUP = 1_800_000_000;
const WEEK = 7 * 86_400;
const free = { paidUser: false, createdAt: SIGNUP };

describe("welcome offer rules", () => {
  it("runs for a logged-in non-paying member until the brand's window after sign-up ends", () => {
    expect(welcomeRemaining(free, WEEK, SIGNUP)).toBe(WEEK);
    expect(welcomeRemaining(free, WEEK, SIGNUP + 14_400)).toBe(WEEK - 14_400);
    expect(welcomeRemaining(free, WEEK, SIGNUP + WEEK - 1)).toBe(1);
  });
  it("is over for a visitor (logged out), a paid user, and once the window has passed", () => {
    expect(welcomeRemaining(null, WEEK, SIGNUP)).toBe(0);
    expect(welcomeRemaining({ ...free, paidUser: true }, WEEK, SIGNUP + 10)).toBe(0);
    expect(welcomeRemaining(free, WEEK, SIGNUP + WEEK)).toBe(0);
  });
  it("never runs longer than the window, even with a sign-up time in the future", () => {
    expect(welcomeRemaining({ ...free, createdAt: SIGNUP + 999 }, WEEK, SIGNUP)).toBe(WEEK);
  });
  it("the active discount is the welcome offer with one code and one end, then none (no second code continues it)", () => {
    for (const at of [SIGNUP + 10, SIGNUP + 14_400, SIGNUP + WEEK - 1])
      expect(activeDiscount(free, WEEK, at)).toEqual({
        code: WELCOME_CODE,
        percentage: 25,
        kind: "welcome",
        expires: SIGNUP + WEEK,
      });
    expect(activeDiscount(free, WEEK, SIGNUP + WEEK)).toBeNull();
    expect(activeDiscount({ ...free, paidUser: true }, WEEK, SIGNUP + 10)).toBeNull();
    expect(activeDiscount(null, WEEK, SIGNUP)).toBeNull();
  });
  it("shows the popup only after the delay, with 0 credits, while running and not dismissed", () => {
    const base = {
      remaining: 100,
      credits: 0,
      dismissed: false,
      secondsInMembersArea: WELCOME_OFFER_POPUP_DELAY_S,
      delayS: WELCOME_OFFER_POPUP_DELAY_S,
    };
    expect(showWelcomeOfferPopup(base)).toBe(true);
    expect(showWelcomeOfferPopup({ ...base, secondsInMembersArea: 39 })).toBe(false);
    expect(showWelcomeOfferPopup({ ...base, credits: 1 })).toBe(false);
    expect(showWelcomeOfferPopup({ ...base, dismissed: true })).toBe(false);
    expect(showWelcomeOfferPopup({ ...base, remaining: 0 })).toBe(false);
  });
});

describe("countdown with a fake clock", () => {
  beforeEach(() => vi.useFakeTimers({ now: SIGNUP * 1000 }));
  afterEach(() => vi.useRealTimers());

  it("ticks every 1000 ms and stops at zero", () => {
    const seen: number[] = [];
    startCountdown(3, (s) => seen.push(s));
    expect(seen).toEqual([3]);
    vi.advanceTimersByTime(999);
    expect(seen).toEqual([3]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([3, 2]);
    vi.advanceTimersByTime(5_000);
    expect(seen).toEqual([3, 2, 1, 0]);
    expect(vi.getTimerCount()).toBe(0);
  });
  it("does not start when nothing is left, and stop() ends it", () => {
    const seen: number[] = [];
    startCountdown(0, (s) => seen.push(s));
    expect(seen).toEqual([0]);
    expect(vi.getTimerCount()).toBe(0);
    const stop = startCountdown(100, (s) => seen.push(s));
    stop();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("prices in integer cents", () => {
  it("reads percentages with up to two decimals, strictly between 0 and 100", () => {
    expect(percentageBasisPoints("25")).toBe(2_500);
    expect(percentageBasisPoints("12.5")).toBe(1_250);
    expect(percentageBasisPoints(" 7.25 ")).toBe(725);
    expect(percentageBasisPoints(50)).toBe(5_000);
    for (const bad of ["0", "100", "150", "-5", "abc", "", "1e2", "12.345", "25%"])
      expect(percentageBasisPoints(bad)).toBeNull();
  });
  it("takes the percentage off, rounding the discount half up to a whole cent", () => {
    expect(discountedPrice(995, "25")).toEqual({ originalCents: 995, discountCents: 249, finalCents: 746 }); // 248.75
    expect(discountedPrice(1995, "25")).toEqual({ originalCents: 1995, discountCents: 499, finalCents: 1496 }); // 498.75
    expect(discountedPrice(7995, "50")).toEqual({ originalCents: 7995, discountCents: 3998, finalCents: 3997 }); // 3997.5
    expect(discountedPrice(1000, "12.5")).toEqual({ originalCents: 1000, discountCents: 125, finalCents: 875 });
    expect(discountedPrice(1, "25")).toEqual({ originalCents: 1, discountCents: 0, finalCents: 1 });
  });
  it("stays exact for large prices (no floating point drift)", () => {
    const r = discountedPrice(99_999_999, "33.33");
    expect(r.discountCents + r.finalCents).toBe(99_999_999);
    expect(r.discountCents).toBe(33_330_000);
  });
  it("refuses a non-integer price or a bad percentage", () => {
    expect(() => discountedPrice(9.95, "25")).toThrow();
    expect(() => discountedPrice(995, "100")).toThrow();
  });
});
