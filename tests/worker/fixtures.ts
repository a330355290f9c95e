/** Shared test data for worker tests: the seed's brands, and helpers to make members and sessions. */
import { env, SELF } from "cloudflare:test";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../db/schema";
import { brands, companies, packages } from "../../db/seed/brands";
import { INTERESTS } from "../../app/lib/constants";

export const db = () => drizzle(env.DB, { schema });

export async function seedBrands() {
  const existing = await env.DB.prepare("SELECT COUNT(*) AS n FROM brands").first<{ n: number }>();
  if (existing && existing.n > 0) return;
  await db().insert(schema.companies).values(companies);
  for (const brand of brands) await db().insert(schema.brands).values(brand);
  await db().insert(schema.packages).values(packages);
  await db().insert(schema.interests).values(INTERESTS.map((id, sort) => ({ id, sort })));
}

/** A request to the Worker as a browser on `host` would send it. */
export function get(path: string, init: { host?: string; country?: string; cookie?: string; headers?: Record<string, string> } = {}) {
  const host = init.host ?? "localhost";
  const headers: Record<string, string> = { Host: host, ...init.headers };
  if (init.cookie) headers.Cookie = init.cookie;
  return SELF.fetch(`http://${host}${path}`, {
    headers,
    redirect: "manual",
    cf: init.country ? { country: init.country } : undefined,
  } as RequestInit);
}

export function post(path: string, form: Record<string, string>, init: { host?: string; cookie?: string; origin?: string } = {}) {
  const host = init.host ?? "localhost";
  const headers: Record<string, string> = {
    Host: host,
    Origin: init.origin ?? `http://${host}`,
    "Content-Type": "application/x-www-form-urlencoded",
  };
  if (init.cookie) headers.Cookie = init.cookie;
  return SELF.fetch(`http://${host}${path}`, { method: "POST", headers, body: new URLSearchParams(form), redirect: "manual" });
}
