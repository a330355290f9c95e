/** Helpers for the payment worker tests: buy through the sandbox as a browser would. */
import { env, SELF } from "cloudflare:test";
import { flushAll, flushedCredits, ledgerOf } from "./wallet-support";
import { expect } from "vitest";
import { createMember, get, grantCredits, post, sessionCookie } from "./fixtures";

/**
 * A member who signed up a month ago: no time bonus or welcome discount, so the full prices apply
 * (tests/worker/offers-checkout.test.ts buys with the discounts).
 */
export async function member(o: Parameters<typeof createMember>[0] = {}, signedUpDaysAgo = 30) {
  const m = await createMember({ country: "NL", ...o });
  await env.DB.prepare("UPDATE users SET created_at = unixepoch() - ?2 WHERE id = ?1")
    .bind(m.id, signedUpDaysAgo * 86_400)
    .run();
  const cookie = `${await sessionCookie(m.id)}; dev_country=NL`;
  return { ...m, cookie };
}

/** The /directdebit form filled in as a Dutch member would (add the package and a mobile number). */
export const DIRECT_DEBIT_DETAILS = {
  intent: "details",
  holder: "Jan Jansen",
  iban: "NL91 ABNA 0417 1643 00",
  street: "Keizersgracht",
  houseNumber: "12a",
  postalCode: "1015 CJ",
  city: "Amsterdam",
};

/** A pay form's one-time token, as the page would render it (each click its own). */
export const clickKey = () => crypto.randomUUID().replaceAll("-", "");

/** Starts a checkout; answers the sandbox payment id and our payment id. */
export async function startPayment(cookie: string, pkg = "p1", method = "ideal", fields: Record<string, string> = {}) {
  const res = await post(
    `/credits/${pkg}/${method}`,
    { intent: "pay", intent_key: clickKey(), method, ...fields },
    { cookie },
  );
  expect(res.status).toBe(302);
  const location = res.headers.get("Location")!;
  const providerId = /\/sandbox\/(tr_\w+)$/.exec(location)?.[1];
  expect(providerId, location).toBeTruthy();
  const row = await env.DB.prepare("SELECT id FROM payments WHERE provider_ref = ?1")
    .bind(providerId)
    .first<{ id: string }>();
  return { providerId: providerId!, paymentId: row!.id };
}

/** The tester's choice on the sandbox checkout; answers where the browser is sent back to. */
export async function choose(providerId: string, outcome: string) {
  const res = await post(`/sandbox/${providerId}`, { outcome });
  expect(res.status).toBe(302);
  return res.headers.get("Location")!;
}

/** Mollie's webhook call: a POST with only the id, no cookie, no Origin. */
export function webhook(id: string) {
  return SELF.fetch("http://localhost/api/payments/webhook", {
    method: "POST",
    headers: { Host: "localhost", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ id }),
  });
}

/** Changes what the sandbox says about a payment, without calling the webhook. */
export async function setProviderStatus(providerId: string, status: string, extra: Record<string, unknown> = {}) {
  const row = await env.DB.prepare("SELECT data FROM sandbox_objects WHERE id = ?1")
    .bind(providerId)
    .first<{ data: string }>();
  const data = { ...JSON.parse(row!.data), status, ...extra };
  await env.DB.prepare("UPDATE sandbox_objects SET data = ?2 WHERE id = ?1")
    .bind(providerId, JSON.stringify(data))
    .run();
}

/** A member with a paid Mollie purchase of p1 (60 credits, EUR 19.95), credited through the ledger. */
export async function paidPurchase(o: { mandate?: boolean } = {}) {
  const m = await member({ paidUser: true });
  const id = `pay_${crypto.randomUUID().slice(0, 8)}`;
  const price = await env.DB.prepare(
    "SELECT price_cents FROM package_prices WHERE package_id = 'p1' AND currency = 'EUR'",
  ).first<{ price_cents: number }>();
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO payments (id, user_id, brand_id, package_id, credits, amount_cents, currency, method, provider, provider_ref, status, sequence_type,
         customer_id, mandate_id, payment_country, paid_at) VALUES (?1, ?2, 1, 'p1', 60, ?3, 'EUR', 'creditcard', 'mollie', ?4, 'paid', ?5, ?6, ?7, 'NL', unixepoch())`,
    ).bind(
      id,
      m.id,
      price!.price_cents,
      `tr_${id.slice(4)}`,
      o.mandate ? "first" : "oneoff",
      o.mandate ? "cst_8wmqcHMN4U" : null,
      o.mandate ? "mdt_h3gAaD5zP" : null,
    ),
  ]);
  // Its credits as the webhook's completion gives them: the outbox row keyed payment:<id>, delivered.
  await grantCredits(m.id, 60, { key: `payment:${id}`, reason: "purchase", refId: id });
  return { m, id, providerRef: `tr_${id.slice(4)}`, priceCents: price!.price_cents };
}

export async function paymentRow(id: string) {
  return env.DB.prepare("SELECT * FROM payments WHERE id = ?1").bind(id).first<Record<string, unknown>>();
}

export async function userRow(id: string) {
  // users.credits is the wallet's copy (decision 189): written before it is read.
  await flushAll(id);
  return env.DB.prepare("SELECT credits, paid_user FROM users WHERE id = ?1")
    .bind(id)
    .first<{ credits: number; paid_user: number }>();
}

/** The ledger explains the balance: the sum of its rows (the wallet's) equals users.credits (the wallet's copy, flushed). */
export async function expectLedgerExplains(userId: string) {
  const balance = await flushedCredits(userId);
  const ledger = (await ledgerOf(userId)).reduce((s, r) => s + r.delta, 0);
  expect(ledger).toBe(balance);
}

export { get, post };
export { ledgerOf, flushAll, flushedCredits } from "./wallet-support";
