/** Test members for the chat journeys, on the shared e2e database helper (support/db.ts). */
import type { Page } from "@playwright/test";
import { openE2eDb, type E2eDb } from "./db";
import { login as loginWith } from "./login";

export const PASSWORD = "Chat-e2e-pass-2026";
let db: Promise<E2eDb> | null = null;

export async function disposeChatDb() {
  await (await db)?.dispose();
  db = null;
}

/** A member who can log in with PASSWORD (premium with 50 credits unless told otherwise). */
export async function createChatMember(
  o: { name?: string; credits?: number; paidUser?: boolean; status?: "confirmed" | "not_confirmed" } = {},
) {
  db ??= openE2eDb();
  return (await db).createMember({ ...o, password: PASSWORD, paidUser: o.paidUser ?? true, credits: o.credits ?? 50 });
}

export const login = (page: Page, email: string) => loginWith(page, email, PASSWORD);
