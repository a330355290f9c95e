/**
 * The rules of the direct debit form (docs/product/data.md §3 "Direct debit form"), pure so they can be unit
 * tested: each field cleaned of invisible characters, the IBAN checked with ibantools (checksum,
 * length, a SEPA country, the member's payment country), the mobile number with libphonenumber-js
 * (mobile numbers only, read in the IBAN's country; loaded on first use). Messages are keys of the
 * `directdebit` namespace.
 */
import { electronicFormatIBAN, extractIBAN, isSEPACountry } from "ibantools";
import { z } from "zod";

export const HOLDER_MAX = 70; // SEPA's limit for a debtor name
export const STREET_MAX = 70;
export const CITY_MAX = 50;
export const HOUSE_NUMBER_MAX = 10;
export const POSTAL_CODE_MAX = 10;
export const MOBILE_MAX = 30;
export const IBAN_MAX = 50; // 34 characters plus spaces
export const CODE_LENGTH = 6;

/**
 * NFC, without control and format characters (zero-width spaces, bidi overrides, soft hyphens),
 * whitespace runs as one space, trimmed. A field of only invisible characters becomes "".
 */
export function cleanText(value: string): string {
  return value
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}]/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
}

/** Direct debit is offered where SEPA Core direct debit reaches: the payment country must be in SEPA. */
export function directDebitCountry(country: string): boolean {
  return /^[A-Z]{2}$/.test(country) && isSEPACountry(country);
}

/** Postal code shapes of the payment countries people use most; other SEPA countries get a loose check. */
const POSTAL_CODES: Record<string, RegExp> = {
  NL: /^[1-9]\d{3} ?[A-Z]{2}$/,
  BE: /^\d{4}$/,
  AT: /^\d{4}$/,
  CH: /^\d{4}$/,
  DK: /^\d{4}$/,
  NO: /^\d{4}$/,
  LU: /^\d{4}$/,
  DE: /^\d{5}$/,
  FR: /^\d{5}$/,
  IT: /^\d{5}$/,
  ES: /^\d{5}$/,
  FI: /^\d{5}$/,
  SE: /^\d{3} ?\d{2}$/,
  PL: /^\d{2}-\d{3}$/,
  IE: /^[A-Z0-9]{3} ?[A-Z0-9]{4}$/,
};
const POSTAL_CODE_ANY = /^[A-Z0-9][A-Z0-9 -]{1,9}$/;

export function validPostalCode(code: string, country: string): boolean {
  return (POSTAL_CODES[country] ?? POSTAL_CODE_ANY).test(code);
}

/** "12", "12a", "12-14", "4 bis", "7/2": a number first, then a short addition. */
const HOUSE_NUMBER = /^\d{1,5}[\p{L}\d \-/]{0,5}$/u;

// conform turns an empty string into undefined, also after cleaning: both are "required".
const text = (max: number, message: string) =>
  z
    .string({ required_error: message })
    .max(max * 4, message)
    .transform(cleanText)
    .pipe(z.string({ required_error: message }).min(1, message).max(max, message));

/** The IBAN in electronic format if it is valid, in SEPA and of the payment country; else an error key. */
export function checkIban(value: string, paymentCountry: string): { iban: string } | { error: string } {
  const iban = electronicFormatIBAN(value) ?? "";
  const parsed = extractIBAN(iban);
  if (!parsed.valid || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return { error: "errors.ibanInvalid" };
  if (!isSEPACountry(parsed.countryCode ?? "")) return { error: "errors.ibanNotSepa" };
  if (parsed.countryCode !== paymentCountry) return { error: "errors.ibanCountry" };
  return { iban };
}

/**
 * The form, for a member whose payment country is `paymentCountry` (the IBAN must be of that country,
 * so it also decides the postal code shape and how a national mobile number is read).
 */
type ParsePhone = typeof import("./directdebit-phone").parsePhoneNumberFromString;

// Loaded by the form's post, not when the Worker starts (decision 234); one import, then the module is cached.
const phoneParser = async (): Promise<ParsePhone> => (await import("./directdebit-phone")).parsePhoneNumberFromString;

function mobileE164(parse: ParsePhone, value: string, paymentCountry: string): string | null {
  if (!/^[+\d][\d ()./-]*$/.test(value)) return null;
  const phone = parse(value, paymentCountry as never);
  // The mobile metadata makes isValid() true for mobile numbers only; SMS go to SEPA countries only.
  return phone?.isValid() && phone.country && isSEPACountry(phone.country) ? phone.number : null;
}

/** A mobile number in E.164, read as a national number of the payment country; null if not a SEPA mobile number. */
export async function checkMobile(value: string, paymentCountry: string): Promise<string | null> {
  return mobileE164(await phoneParser(), value, paymentCountry);
}

export async function directDebitSchema(paymentCountry: string) {
  const parse = await phoneParser();
  return z.object({
    holder: text(HOLDER_MAX, "errors.holder").pipe(
      z.string({ required_error: "errors.holder" }).min(2, "errors.holder"),
    ),
    iban: text(IBAN_MAX, "errors.ibanInvalid").transform((v, ctx) => {
      const r = checkIban(v, paymentCountry);
      if ("error" in r) ctx.addIssue({ code: "custom", message: r.error });
      return "iban" in r ? r.iban : "";
    }),
    street: text(STREET_MAX, "errors.street"),
    houseNumber: text(HOUSE_NUMBER_MAX, "errors.houseNumber").refine((v) => HOUSE_NUMBER.test(v), "errors.houseNumber"),
    postalCode: text(POSTAL_CODE_MAX, "errors.postalCode")
      .transform((v) => v.toUpperCase())
      .refine((v) => validPostalCode(v, paymentCountry), "errors.postalCode"),
    city: text(CITY_MAX, "errors.city"),
    mobile: text(MOBILE_MAX, "errors.mobileInvalid").transform((v, ctx) => {
      const e164 = mobileE164(parse, v, paymentCountry);
      if (!e164) ctx.addIssue({ code: "custom", message: "errors.mobileInvalid" });
      return e164 ?? "";
    }),
  });
}

export type DirectDebitDetails = z.output<Awaited<ReturnType<typeof directDebitSchema>>>;

export const codeSchema = z.object({
  request: z.string().min(1).max(64),
  code: z
    .string({ required_error: "errors.codeInvalid" })
    .max(64, "errors.codeInvalid")
    .transform((v) => cleanText(v).replace(/[\s-]/g, ""))
    .pipe(
      z
        .string({ required_error: "errors.codeInvalid" })
        .regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), "errors.codeInvalid"),
    ),
});

/** The IBAN as shown back to the member once stored: country, check digits and the last four. */
export function maskIban(iban: string): string {
  return `${iban.slice(0, 4)}\u00A0••••\u00A0${iban.slice(-4)}`; // no-break spaces: never wrapped apart
}

/** The mobile number as shown on the code step: the last three digits. */
export function maskMobile(e164: string): string {
  return `${e164.slice(0, 3)}\u00A0••••\u00A0${e164.slice(-3)}`;
}

/** The documented example IBANs of the common payment countries (shown as a hint, never prefilled). */
export const IBAN_EXAMPLES: Record<string, string> = {
  NL: "NL91 ABNA 0417 1643 00",
  DE: "DE89 3704 0044 0532 0130 00",
  BE: "BE68 5390 0754 7034",
  AT: "AT61 1904 3002 3457 3201",
  FR: "FR14 2004 1010 0505 0001 3M02 606",
  IT: "IT60 X054 2811 1010 0000 0123 456",
  ES: "ES91 2100 0418 4502 0005 1332",
  PL: "PL61 1090 1014 0000 0712 1981 2874",
  DK: "DK50 0040 0440 1162 43",
  FI: "FI21 1234 5600 0007 85",
  SE: "SE45 5000 0000 0583 9825 7466",
  NO: "NO93 8601 1117 947",
  CH: "CH93 0076 2011 6238 5295 7",
  LU: "LU28 0019 4006 4475 0000",
  IE: "IE29 AIBK 9311 5212 3456 78",
};
