import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TIME_BONUS_POPUP_DELAY_S } from "../../app/lib/constants";
import {
  activeDiscount,
  discountedPrice,
  formatCountdown,
  percentageBasisPoints,
  showTimeBonusPopup,
  startCountdown,
  timeBonusRemaining,
  WELCOME_CODE,
} from "../../app/lib/offers";

const SIGNUP = 1_800_000_000;
const WEEK = 7 * 86_400;
const free = { paidUser: false, createdAt: SIGNUP };

describe("time bonus rules", () => {
  it("starts for a logged-in non-paying member whose sign-up is under 14400 s old", () => {
    expect(timeBonusRemaining(free, SIGNUP)).toBe(14_400);
    expect(timeBonusRemaining(free, SIGNUP + 60)).toBe(14_340);
    expect(timeBonusRemaining(free, SIGNUP + 14_399)).toBe(1);
  });
  it("is cleared for a visitor (logged out), a paid user, and a sign-up 4 hours old or more at load", () => {
    expect(timeBonusRemaining(null, SIGNUP)).toBe(0);
    expect(timeBonusRemaining({ ...free, paidUser: true }, SIGNUP + 10)).toBe(0);
    expect(timeBonusRemaining(free, SIGNUP + 14_400)).toBe(0);
    expect(timeBonusRemaining(free, SIGNUP + 86_400)).toBe(0);
  });
  it("never runs longer than 4 hours, even with a sign-up time in the future", () => {
    expect(timeBonusRemaining({ ...free, createdAt: SIGNUP + 999 }, SIGNUP)).toBe(14_400);
  });
  it("the active discount is the time bonus, else the welcome code, else none", () => {
    expect(activeDiscount(free, WEEK, SIGNUP + 10)).toMatchObject({
      code: "TIMEBONUS25",
      percentage: 25,
      kind: "time_bonus",
      expires: SIGNUP + 14_400,
    });
    expect(activeDiscount(free, WEEK, SIGNUP + 14_400)).toMatchObject({
      code: WELCOME_CODE,
      percentage: 25,
      kind: "welcome",
      expires: SIGNUP + WEEK,
    });
    expect(activeDiscount(free, WEEK, SIGNUP + WEEK)).toBeNull();
    expect(activeDiscount({ ...free, paidUser: true }, WEEK, SIGNUP + 10)).toBeNull();
    expect(activeDiscount(null, WEEK, SIGNUP)).toBeNull();
  });
  it("formats the countdown as zero-padded hh:mm:ss", () => {
    expect(formatCountdown(14_400)).toBe("04:00:00");
    expect(formatCountdown(3_599)).toBe("00:59:59");
    expect(formatCountdown(61)).toBe("00:01:01");
    expect(formatCountdown(0)).toBe("00:00:00");
    expect(formatCountdown(-5)).toBe("00:00:00");
  });
  it("shows the popup only after the delay, with 0 credits, while running and not dismissed", () => {
    const base = {
      remaining: 100,
      credits: 0,
      dismissed: false,
      secondsInMembersArea: TIME_BONUS_POPUP_DELAY_S,
      delayS: TIME_BONUS_POPUP_DELAY_S,
    };
    expect(showTimeBonusPopup(base)).toBe(true);
    expect(showTimeBonusPopup({ ...base, secondsInMembersArea: 39 })).toBe(false);
    expect(showTimeBonusPopup({ ...base, credits: 1 })).toBe(false);
    expect(showTimeBonusPopup({ ...base, dismissed: true })).toBe(false);
    expect(showTimeBonusPopup({ ...base, remaining: 0 })).toBe(false);
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
