/** English labels of the console (staff tool, English only; decision 167). */
export const CATEGORY_LABELS: Record<string, string> = {
  minor: "Minor",
  ncii: "Non-consensual intimate imagery",
  illegal: "Illegal content",
  scam: "Scam or fraud",
  harassment: "Harassment",
  fake: "Fake profile",
  spam: "Spam",
  other: "Other",
};
export const ACTION_LABELS: Record<string, string> = {
  no_action: "No action",
  remove_photo: "Remove the photo",
  remove_profile_text: "Remove the profile text",
  remove_message: "Remove the message (both members' views)",
  reset_name: "Reset the display name",
  restrict_messaging: "Restrict messaging for N days",
  suspend: "Suspend for N days",
  ban: "Ban",
};
export { RULE_LABELS } from "~/models/moderation-rules";

/** The automated rules (decision 176). */
export const FLAG_LABELS: Record<string, string> = {
  new_account_burst: "New account writing to many members within minutes",
  same_text: "Same text to many members",
  contact_details: "Contact details in the first messages",
  payment_request: "Payment request in the first messages",
  disposable_email: "Signed up with a disposable e-mail address",
  repeated_reports: "Reports from several different members",
};

/** "3 d 4 h", "25 min". */
export function ageOf(seconds: number): string {
  const s = Math.max(0, seconds);
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
}

export const when = (at: number) => new Date(at * 1000).toISOString().replace("T", " ").slice(0, 16);

/** "1,234.50 EUR": exact cents, the currency code as on receipts (never added across currencies). */
export function money(cents: number, currency: string): string {
  const sign = cents < 0 ? "−" : "";
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toLocaleString("en");
  return `${sign}${whole}.${String(abs % 100).padStart(2, "0")} ${currency}`;
}

/** "12.5 %" of a part in a whole, "–" when the whole is nothing. */
export const percent = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)} %` : "–");
