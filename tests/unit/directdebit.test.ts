/** The direct debit form's pure rules: cleaning, IBAN, mobile number, postal code, masks. */
import { describe, expect, it } from "vitest";
import {
  checkIban,
  checkMobile,
  cleanText,
  directDebitCountry,
  maskIban,
  maskMobile,
  validPostalCode,
} from "../../app/models/directdebit-rules";

describe("direct debit rules", () => {
  it("cleanText removes control, zero-width and bidi characters and collapses spaces", () => {
    expect(cleanText("  Jan\u202E\u200B  Jansen\u0000 ")).toBe("Jan Jansen");
    expect(cleanText("\u200B\u2066\u00AD")).toBe("");
    expect(cleanText("Cafe\u0301")).toBe("Café");
  });

  it("an IBAN must be valid, in SEPA and of the payment country", () => {
    expect(checkIban("nl91 abna 0417 1643 00", "NL")).toEqual({ iban: "NL91ABNA0417164300" });
    expect(checkIban("NL91ABNA0417164301", "NL")).toEqual({ error: "errors.ibanInvalid" });
    expect(checkIban("DE89370400440532013000", "NL")).toEqual({ error: "errors.ibanCountry" });
    expect(checkIban("DE89370400440532013000", "DE")).toEqual({ iban: "DE89370400440532013000" });
    expect(checkIban("SA0380000000608010167519", "SA")).toEqual({ error: "errors.ibanNotSepa" });
    expect(checkIban("", "NL")).toEqual({ error: "errors.ibanInvalid" });
  });

  it("a mobile number is read in the payment country and must be a SEPA mobile number", async () => {
    expect(await checkMobile("06 12345678", "NL")).toBe("+31612345678");
    expect(await checkMobile("+49 151 23456789", "NL")).toBe("+4915123456789");
    expect(await checkMobile("0151 23456789", "DE")).toBe("+4915123456789");
    expect(await checkMobile("020 123 4567", "NL")).toBeNull(); // a landline
    expect(await checkMobile("+1 202 555 0143", "NL")).toBeNull(); // outside SEPA
    expect(await checkMobile("06-1234abcd", "NL")).toBeNull();
  });

  it("postal codes have their country's shape", () => {
    expect(validPostalCode("1015 CJ", "NL")).toBe(true);
    expect(validPostalCode("1015CJ", "NL")).toBe(true);
    expect(validPostalCode("0123 AB", "NL")).toBe(false);
    expect(validPostalCode("10117", "DE")).toBe(true);
    expect(validPostalCode("1011", "DE")).toBe(false);
    expect(validPostalCode("00-950", "PL")).toBe(true);
    expect(validPostalCode("L-1234", "LU")).toBe(false);
  });

  it("direct debit is offered in SEPA countries only", () => {
    expect(directDebitCountry("NL")).toBe(true);
    expect(directDebitCountry("CH")).toBe(true);
    expect(directDebitCountry("US")).toBe(false);
    expect(directDebitCountry("XX")).toBe(false);
  });

  it("stored details are shown masked", () => {
    expect(maskIban("NL91ABNA0417164300")).toBe("NL91\u00A0••••\u00A04300");
    expect(maskMobile("+31612345678")).toBe("+31\u00A0••••\u00A0678");
  });
});
