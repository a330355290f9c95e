/**
 * libphonenumber-js's parser and its mobile metadata (about 190 KB of code), imported by directdebit-rules.ts
 * on first use so the Worker does not evaluate it when it starts (decision 234); one name, so the bundle
 * keeps only what parsing needs.
 */
export { parsePhoneNumberFromString } from "libphonenumber-js/mobile";
