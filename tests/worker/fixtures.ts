/** Shared test data for worker tests: the seed's brands, and helpers to make members and sessions. */
import { applyThroughOutbox } from "../../app/wallet/outbox.server";
import { env, SELF } from "cloudflare:test";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../db/schema";
import { brands, companies, packagePrices, packages } from "../../db/seed/brands";
import { INTERESTS } from "../../app/lib/constants";

export const db = () => drizzle(env.DB, { schema });

export async function seedBrands() {
  const existing = await env.DB.prepare("SELECT COUNT(*) AS n FROM brands").first<{ n: number }>();
  if (existing && existing.n > 0) return;
  // One batch (one round trip); a brand per statement keeps each under D1's 100 bound parameters.
  const d = db();
  await d.batch([
    d.insert(schema.companies).values(companies),
    ...brands.map((brand) => d.insert(schema.brands).values(brand)),
    d.insert(schema.packages).values(packages),
    d.insert(schema.packagePrices).values(packagePrices),
    d.insert(schema.interests).values(INTERESTS.map((id, sort) => ({ id, sort }))),
  ]);
}

/** A request to the Worker as a browser on `host` would send it. */
export function get(
  path: string,
  init: { host?: string; country?: string; cookie?: string; headers?: Record<string, string> } = {},
) {
  const host = init.host ?? "localhost";
  const headers: Record<string, string> = { Host: host, ...init.headers };
  if (init.cookie) headers.Cookie = init.cookie;
  return SELF.fetch(`http://${host}${path}`, {
    headers,
    redirect: "manual",
    cf: init.country ? { country: init.country } : undefined,
  } as RequestInit);
}

export function post(
  path: string,
  form: Record<string, string> | URLSearchParams,
  init: { host?: string; cookie?: string; origin?: string; country?: string } = {},
) {
  const host = init.host ?? "localhost";
  const headers: Record<string, string> = {
    Host: host,
    Origin: init.origin ?? `http://${host}`,
    "Content-Type": "application/x-www-form-urlencoded",
  };
  if (init.cookie) headers.Cookie = init.cookie;
  return SELF.fetch(`http://${host}${path}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(form),
    redirect: "manual",
    cf: init.country ? { country: init.country } : undefined,
  } as RequestInit);
}

let seq = 0;
/** Creates a member (user + profile) on a brand; returns its id and e-mail. */
export async function createMember(
  o: Partial<{
    brandId: number;
    email: string;
    name: string;
    paidUser: boolean;
    credits: number;
    status: "not_confirmed" | "confirmed";
    gender: "male" | "female";
    country: string;
    dateOfBirth: string;
    passwordHash: string;
    language: string;
    profileStatus: "active" | "disabled";
  }> = {},
) {
  seq += 1;
  const id = `test-${Date.now().toString(36)}-${seq}`;
  const email = o.email ?? `${id}@example.com`;
  await env.DB.batch([
    env.DB.prepare(
      // wallet_at set: as a member signed up now, never touched by the background wallet move (a test that
      // injects a wallet failure must not see it taken by that move); move tests clear it themselves.
      "INSERT INTO users (id, brand_id, email, password_hash, paid_user, status, language, wallet_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, unixepoch())",
    ).bind(
      id,
      o.brandId ?? 1,
      email,
      o.passwordHash ?? "x",
      o.paidUser ? 1 : 0,
      o.status ?? "confirmed",
      o.language ?? "en",
    ),
    env.DB.prepare(
      "INSERT INTO profiles (user_id, name, gender, date_of_birth, country, status) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    ).bind(
      id,
      o.name ?? `Member ${seq}`,
      o.gender ?? "female",
      o.dateOfBirth ?? "1990-05-01",
      o.country ?? "NL",
      o.profileStatus ?? "active",
    ),
  ]);
  if (o.credits) await grantCredits(id, o.credits);
  return { id, email };
}

/**
 * Credits given as the console gives them (an outbox row, delivered to the member's wallet at once):
 * the wallet's balance and ledger row, the outbox row applied and D1's copy, as after a real grant.
 */
export async function grantCredits(
  userId: string,
  credits: number,
  o: { key?: string; reason?: "adjustment" | "purchase" | "signup"; refId?: string | null } = {},
) {
  const row = await applyThroughOutbox(env, {
    userId,
    kind: "apply",
    key: o.key ?? `grant:test-${crypto.randomUUID()}`,
    delta: credits,
    reason: o.reason ?? "adjustment",
    refId: o.refId ?? null,
  });
  if (!row?.appliedAt || row.refused) throw new Error(`grantCredits: not applied to ${userId}`);
}

/** A signed session cookie for a member, as the login would set it ("sid=…"). */
export async function sessionCookie(userId: string): Promise<string> {
  const { createCookie } = await import("@remix-run/cloudflare");
  const sid = `sid-${crypto.randomUUID()}`;
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(sid)));
  const hash = btoa(String.fromCharCode(...bytes));
  await env.DB.prepare("INSERT INTO sessions (id_hash, user_id, expires_at) VALUES (?1, ?2, ?3)")
    .bind(hash, userId, Math.floor(Date.now() / 1000) + 86400)
    .run();
  const cookie = createCookie("sid", { secrets: [env.SESSION_SECRET] });
  return (await cookie.serialize(sid)).split(";")[0]!;
}

/** A photos row (no files) for `userId`, approved unless said otherwise (decision 175), as a statement for a batch. */
export function photoRow(userId: string, photoId: string, review: "pending" | "approved" = "approved") {
  return env.DB.prepare("INSERT INTO photos (id, user_id, width, height, review) VALUES (?1, ?2, 10, 10, ?3)").bind(
    photoId,
    userId,
    review,
  );
}

/**
 * The response's Set-Cookie as a test of the app's own cookies sees it: without `d1b`, the D1 bookmark
 * every signed-in response may carry (decision 222); null when nothing else is set.
 */
export function appSetCookie(res: Response): string | null {
  const own = res.headers.getSetCookie().filter((c) => !c.startsWith("d1b="));
  return own.length ? own.join(", ") : null;
}
