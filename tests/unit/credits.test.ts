import { describe, expect, it } from "vitest";
import { pricesFor } from "~/models/credits.server";

const brand = {
  minimumMessageCosts: {
    CH: { costs: 2, currency: "CHF" },
    AT: { costs: 0, currency: "EUR" },
    BE: { costs: 1.5, currency: "EUR" },
  },
  messageCredits: 3,
  giftCredits: 10,
  photoCredits: 5,
};

describe("pricesFor (the one owner of what a thing costs)", () => {
  it("a message costs the country's minimum_message_costs, case-insensitively", () => {
    expect(pricesFor(brand, "CH")).toEqual({ message: 2, gift: 10, photo: 5 });
    expect(pricesFor(brand, "ch").message).toBe(2);
    expect(pricesFor(brand, "AT").message).toBe(0);
  });

  it("falls back to message_credits without a country, for an unknown one, or for a price that is not a whole number", () => {
    expect(pricesFor(brand, null).message).toBe(3);
    expect(pricesFor(brand, "JP").message).toBe(3);
    expect(pricesFor(brand, "BE").message).toBe(3);
    expect(pricesFor({ ...brand, minimumMessageCosts: { NL: { costs: -1, currency: "EUR" } } }, "NL").message).toBe(3);
  });
});
