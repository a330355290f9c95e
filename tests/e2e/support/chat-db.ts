/** Test members for the chat journeys, on the shared e2e database helper (support/db.ts). */
import { e2eDb } from "./db";

export const PASSWORD = "Chat-e2e-pass-2026";

/**
 * A member (premium with 50 credits unless told otherwise); tests log in by cookie (support/fixtures.ts),
 * PASSWORD is for the journeys that log in through the form.
 */
export async function createChatMember(
  o: { name?: string; credits?: number; paidUser?: boolean; status?: "confirmed" | "not_confirmed" } = {},
) {
  return e2eDb().createMember({ ...o, password: PASSWORD, paidUser: o.paidUser ?? true, credits: o.credits ?? 50 });
}
