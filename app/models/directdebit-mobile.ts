/**
 * The direct debit form's mobile number check, apart from its other rules (directdebit-rules.ts) because
 * libphonenumber-js carries its metadata (about 190 KB of code): the form's post loads it on first use,
 * not the Worker when it starts (decision 234).
 */
import { isSEPACountry } from "ibantools";
import { parsePhoneNumberFromString } from "libphonenumber-js/mobile";

/** A mobile number in E.164, read as a national number of the payment country; null if not a SEPA mobile number. */
export function checkMobile(value: string, paymentCountry: string): string | null {
  if (!/^[+\d][\d ()./-]*$/.test(value)) return null;
  const phone = parsePhoneNumberFromString(value, paymentCountry as never);
  // The mobile metadata makes isValid() true for mobile numbers only; SMS go to SEPA countries only.
  return phone?.isValid() && phone.country && isSEPACountry(phone.country) ? phone.number : null;
}
