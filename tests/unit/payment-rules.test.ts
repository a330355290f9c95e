import { describe, expect, it } from "vitest";
import {
  acceptsCurrency,
  canMove,
  chargedBackCents,
  isBankReasonCode,
  localeFor,
  paymentState,
  refundCanMove,
  refundCents,
  refundReturnsCredits,
  sequenceTypeFor,
  statusFromProvider,
  unusedCredits,
  vatNumberFor,
  vatOf,
  withinRefundDays,
  type PaymentStatus,
} from "../../app/models/payment-rules";
import { fromMollieAmount, toMollieAmount } from "../../app/lib/payments/mollie.server";

describe("payment status transitions", () => {
  const all: PaymentStatus[] = ["open", "pending", "paid", "failed", "canceled", "expired", "refunded", "charged_back"];
  it("open and pending may move on; final statuses never change; no status moves to itself", () => {
    expect(canMove("open", "pending")).toBe(true);
    expect(canMove("open", "paid")).toBe(true);
    expect(canMove("pending", "paid")).toBe(true);
    expect(canMove("pending", "expired")).toBe(true);
    expect(canMove("pending", "open")).toBe(false);
    for (const from of ["paid", "failed", "canceled", "expired", "refunded"] as const)
      for (const to of all) expect(canMove(from, to)).toBe(false);
    for (const s of all) expect(canMove(s, s)).toBe(false);
  });
  it("maps Mollie's authorized to pending and each status to a screen state", () => {
    expect(statusFromProvider("authorized")).toBe("pending");
    expect(paymentState("open")).toBe("pending");
    expect(paymentState("paid")).toBe("completed");
    expect(paymentState("expired")).toBe("failed");
  });
});

describe("methods", () => {
  it("cards and PayPal make a mandate (first), others are one-off", () => {
    expect(sequenceTypeFor("creditcard")).toBe("first");
    expect(sequenceTypeFor("paypal")).toBe("first");
    expect(sequenceTypeFor("ideal")).toBe("oneoff");
  });
  it("currency limits", () => {
    expect(acceptsCurrency(null, "EUR")).toBe(true);
    expect(acceptsCurrency("SEK", "EUR")).toBe(false);
    expect(acceptsCurrency("PLN,EUR", "EUR")).toBe(true);
  });
});

describe("refunds of unused credits (spent oldest purchase first)", () => {
  it("a purchase keeps what the balance has beyond newer grants, at most what it added", () => {
    expect(unusedCredits(40, 60, 0)).toBe(40);
    expect(unusedCredits(100, 60, 0)).toBe(60);
    expect(unusedCredits(55, 25, 60)).toBe(0);
    expect(unusedCredits(70, 25, 60)).toBe(10);
    expect(unusedCredits(0, 60, 0)).toBe(0);
  });
  it("pays back pro rata, rounded down to the cent", () => {
    expect(refundCents(1995, 60, 40)).toBe(1330);
    expect(refundCents(995, 25, 1)).toBe(39);
    expect(refundCents(995, 25, 30)).toBe(995);
    expect(refundCents(995, 25, 0)).toBe(0);
  });
  it("only within refund_days of the payment", () => {
    expect(withinRefundDays(1000, 14, 1000 + 14 * 86400)).toBe(true);
    expect(withinRefundDays(1000, 14, 1001 + 14 * 86400)).toBe(false);
    expect(withinRefundDays(null, 14, 1000)).toBe(false);
    expect(withinRefundDays(1000, 0, 1000)).toBe(false);
  });
});

describe("VAT on receipts", () => {
  it("takes the VAT out of a gross price exactly", () => {
    expect(vatOf(1995, 2100)).toEqual({ vatCents: 346, netCents: 1649 });
    expect(vatOf(995, 1900)).toEqual({ vatCents: 159, netCents: 836 });
  });
  it("uses the seller's VAT number of the buyer's country, else the home one", () => {
    expect(vatNumberFor(["NL864512378B01", "DE318764512"], "DE", "NL")).toBe("DE318764512");
    expect(vatNumberFor(["NL864512378B01"], "FR", "NL")).toBe("NL864512378B01");
  });
});

describe("Mollie amounts", () => {
  it("cents to Mollie's decimal strings and back, without floating point", () => {
    expect(toMollieAmount({ cents: 1995, currency: "EUR" })).toEqual({ value: "19.95", currency: "EUR" });
    expect(toMollieAmount({ cents: 5, currency: "EUR" })).toEqual({ value: "0.05", currency: "EUR" });
    expect(fromMollieAmount({ value: "19.95", currency: "EUR" })).toEqual({ cents: 1995, currency: "EUR" });
    expect(fromMollieAmount({ value: "10.5", currency: "EUR" })).toEqual({ cents: 1050, currency: "EUR" });
    expect(fromMollieAmount({ value: "50000.00", currency: "EUR" })).toEqual({ cents: 5_000_000, currency: "EUR" });
    expect(() => toMollieAmount({ cents: 1.5, currency: "EUR" })).toThrow();
  });

  it("other currencies: two decimals for SEK, NOK, DKK, PLN and CHF; none for the yen and the króna", () => {
    expect(toMollieAmount({ cents: 10900, currency: "SEK" })).toEqual({ value: "109.00", currency: "SEK" });
    expect(toMollieAmount({ cents: 4299, currency: "PLN" })).toEqual({ value: "42.99", currency: "PLN" });
    expect(toMollieAmount({ cents: 990, currency: "CHF" })).toEqual({ value: "9.90", currency: "CHF" });
    expect(toMollieAmount({ cents: 500, currency: "JPY" })).toEqual({ value: "500", currency: "JPY" });
    expect(fromMollieAmount({ value: "929.00", currency: "NOK" })).toEqual({ cents: 92900, currency: "NOK" });
    expect(fromMollieAmount({ value: "1500", currency: "ISK" })).toEqual({ cents: 1500, currency: "ISK" });
    expect(() => fromMollieAmount({ value: "15.50", currency: "JPY" })).toThrow();
    expect(() => toMollieAmount({ cents: 100, currency: "sek" })).toThrow();
  });
});

describe("refund statuses after the fact", () => {
  it("move forward only; refunded, failed and canceled are final", () => {
    expect(refundCanMove("queued", "pending")).toBe(true);
    expect(refundCanMove("pending", "processing")).toBe(true);
    expect(refundCanMove("processing", "refunded")).toBe(true);
    expect(refundCanMove("pending", "failed")).toBe(true);
    expect(refundCanMove("queued", "canceled")).toBe(true);
    expect(refundCanMove("processing", "pending")).toBe(false);
    expect(refundCanMove("pending", "pending")).toBe(false);
    expect(refundCanMove("refunded", "failed")).toBe(false);
    expect(refundCanMove("failed", "refunded")).toBe(false);
  });
  it("only a refund that ended without paying gives the credits back", () => {
    expect(
      ["queued", "pending", "processing", "refunded", "failed", "canceled"].filter((s) =>
        refundReturnsCredits(s as "failed"),
      ),
    ).toEqual(["failed", "canceled"]);
  });
});

describe("decision 090 rules", () => {
  it("the checkout locale is the language in the payment country where Mollie has it, else the language's own", () => {
    expect(localeFor("fr", "BE")).toBe("fr_BE");
    expect(localeFor("nl", "BE")).toBe("nl_BE");
    expect(localeFor("de", "AT")).toBe("de_AT");
    expect(localeFor("de", "CH")).toBe("de_CH");
    expect(localeFor("de", "NL")).toBe("de_DE");
    expect(localeFor("en", null)).toBe("en_GB");
  });

  it("what the bank holds is the chargebacks not reversed; amountChargedBack only without them", () => {
    const cb = (cents: number, reversedAt: string | null) => ({ amount: { cents }, reversedAt });
    expect(chargedBackCents({ amountChargedBack: { cents: 995 }, chargebacks: [] })).toBe(995);
    expect(
      chargedBackCents({ amountChargedBack: { cents: 995 }, chargebacks: [cb(995, "2026-11-25T10:00:00+00:00")] }),
    ).toBe(0);
    expect(
      chargedBackCents({
        amountChargedBack: { cents: 1990 },
        chargebacks: [cb(995, "2026-11-25T10:00:00+00:00"), cb(995, null)],
      }),
    ).toBe(995);
  });

  it("an unknown create outcome is checked, then moves to whatever the provider's record says", () => {
    expect(canMove("open", "checking")).toBe(true);
    expect(canMove("checking", "paid")).toBe(true);
    expect(canMove("checking", "failed")).toBe(true);
    expect(canMove("failed", "checking")).toBe(false);
    expect(refundCanMove("checking", "queued")).toBe(true);
    expect(refundCanMove("checking", "refunded")).toBe(true);
    expect(refundCanMove("refunded", "checking")).toBe(false);
  });

  it("a SEPA reason code is two letters and two digits, unlike a card's failure reason", () => {
    expect(isBankReasonCode("AM04")).toBe(true);
    expect(isBankReasonCode("card_expired")).toBe(false);
    expect(isBankReasonCode(null)).toBe(false);
  });
});
