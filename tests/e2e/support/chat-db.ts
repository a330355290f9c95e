/**
 * Test data for the chat journeys, written straight into the e2e server's local D1 through
 * wrangler's getPlatformProxy (the same state `tests/e2e/server.sh` serves).
 */
import type { Page } from "@playwright/test";
import { getPlatformProxy } from "wrangler";
import { hashPassword } from "../../../app/lib/password";

const port = Number(process.env.E2E_PORT ?? 8788);
const PEPPER = "dev-pepper-not-for-production";
export const PASSWORD = "Chat-e2e-pass-2026";

let proxy: Awaited<ReturnType<typeof getPlatformProxy<{ DB: D1Database }>>> | null = null;
let hash: Promise<string> | null = null;

async function db() {
  proxy ??= await getPlatformProxy<{ DB: D1Database }>({ persist: { path: `.wrangler/e2e-${port}/v3` } });
  return proxy.env.DB;
}

export async function disposeChatDb() {
  await proxy?.dispose();
  proxy = null;
}

let seq = 0;
/** A member who can log in with PASSWORD. */
export async function createChatMember(o: { name?: string; credits?: number; paidUser?: boolean; status?: "confirmed" | "not_confirmed" } = {}) {
  const DB = await db();
  hash ??= hashPassword(PASSWORD, PEPPER, 1000);
  const id = `e2e-${Date.now().toString(36)}-${process.pid}-${++seq}`;
  const email = `${id}@chat.example`;
  await DB.batch([
    DB.prepare("INSERT INTO users (id, brand_id, email, password_hash, paid_user, credits, status, language) VALUES (?1, 1, ?2, ?3, ?4, ?5, ?6, 'en')")
      .bind(id, email, await hash, o.paidUser === false ? 0 : 1, o.credits ?? 50, o.status ?? "confirmed"),
    DB.prepare("INSERT INTO profiles (user_id, name, gender, date_of_birth, country) VALUES (?1, ?2, 'female', '1990-01-01', 'NL')")
      .bind(id, o.name ?? `Member ${seq}`),
  ]);
  return { id, email };
}

export async function login(page: Page, email: string) {
  await page.goto("/login");
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith("/login")), page.locator('form:has(input[name="password"]) button[type="submit"]').click()]);
}
