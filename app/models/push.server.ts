/**
 * Web Push (RFC 8030/8291/8292) with VAPID through @block65/webcrypto-web-push (WebCrypto only, aes128gcm).
 * A member may subscribe several devices (push_subscriptions); a subscription the push service answers
 * 404 or 410 for is gone and deleted. Production keys are secrets; outside production a key pair is made
 * on first use and kept in the local D1 (app_keys), so it never lands in the repository.
 */
import { buildPushPayload } from "@block65/webcrypto-web-push";
import { and, eq, inArray, not, notInArray, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { lazy } from "~/lib/lazy";
import { getDb, schema, type Db } from "../../db/client";
import { isDeployed, type Env } from "~/lib/env";

const { appKeys, pushSubscriptions, users } = schema;

export type PushEnv = Pick<Env, "DB" | "ENVIRONMENT" | "VAPID_SUBJECT" | "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY">;
export type VapidPair = { publicKey: string; privateKey: string };

/** A member's devices; more than this and the oldest is dropped. */
export const MAX_PUSH_DEVICES = 10;

const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

let cached: Promise<VapidPair> | null = null;

/** The VAPID key pair: the secrets in production, else the local development pair (made once). */
export function vapidKeys(env: PushEnv): Promise<VapidPair> {
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    return Promise.resolve({ publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY });
  }
  if (isDeployed(env)) return Promise.reject(new Error("VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY secrets missing"));
  cached ??= developmentKeys(env.DB).catch((e) => {
    cached = null;
    throw e;
  });
  return cached;
}

async function developmentKeys(d1: D1Database): Promise<VapidPair> {
  const db = getDb(d1);
  const stored = () => db.select({ value: appKeys.value }).from(appKeys).where(eq(appKeys.name, "vapid")).get();
  const row = await stored();
  if (row) return JSON.parse(row.value) as VapidPair;
  const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
    "sign",
    "verify",
  ])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", pair.privateKey)) as JsonWebKey;
  const raw = await crypto.subtle.exportKey("raw", pair.publicKey);
  const fresh: VapidPair = { publicKey: b64url(raw as ArrayBuffer), privateKey: jwk.d! };
  // Two isolates starting at once: the first insert wins and both use it.
  await db
    .insert(appKeys)
    .values({ name: "vapid", value: JSON.stringify(fresh) })
    .onConflictDoNothing();
  return JSON.parse((await stored())!.value) as VapidPair;
}

// ---------------------------------------------------------------------------------------------
// Subscriptions

const base64url = (bytes: number) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/)
    .refine((s) => Math.floor((s.replace(/=+$/, "").length * 3) / 4) === bytes);

/**
 * The browsers' push services (Chrome/Edge/Opera: FCM; Firefox: autopush; Safari: Apple; legacy Edge: WNS).
 * Only these are posted to: a forged endpoint cannot make the Worker send requests anywhere else.
 */
const PUSH_HOSTS = [
  /^fcm\.googleapis\.com$/,
  /^updates\.push\.services\.mozilla\.com$/,
  /^web\.push\.apple\.com$/,
  /\.notify\.windows\.com$/,
];

export const isPushServiceUrl = (u: string) => {
  try {
    const url = new URL(u);
    return url.protocol === "https:" && !url.port && PUSH_HOSTS.some((h) => h.test(url.hostname));
  } catch {
    return false;
  }
};

/** A browser's PushSubscription.toJSON(): an endpoint on a push service and its keys (65-byte P-256 point, 16-byte secret). */
export const subscriptionSchema = lazy(() =>
  z.object({
    endpoint: z.string().max(1000).refine(isPushServiceUrl),
    expirationTime: z.number().nullable().optional(),
    keys: z.object({ p256dh: base64url(65), auth: base64url(16) }),
  }),
);
export type SubscriptionInput = z.infer<ReturnType<typeof subscriptionSchema>>;
export type StoredSubscription = { id: number; endpoint: string; p256dh: string; auth: string };

/**
 * Stores a device for the member (an endpoint already known moves to them: the browser's profile
 * changed hands), keeps at most MAX_PUSH_DEVICES, and marks the member as push-subscribed. The
 * member it moves away from keeps their flag only if another device is left (same batch).
 */
export async function saveSubscription(d1: D1Database, userId: string, s: SubscriptionInput) {
  const db = getDb(d1);
  const kept = db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(sql`${pushSubscriptions.id} DESC`)
    .limit(MAX_PUSH_DEVICES);
  await db.batch([
    // Before the move: the previous owner's flag as it will be without this endpoint.
    ownersWithout(db, (t) => and(eq(t.endpoint, s.endpoint), sql`${t.userId} <> ${userId}`)!),
    db
      .insert(pushSubscriptions)
      .values({ userId, endpoint: s.endpoint, p256dh: s.keys.p256dh, auth: s.keys.auth })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId: sql`excluded.user_id`, p256dh: sql`excluded.p256dh`, auth: sql`excluded.auth` },
      }),
    db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, kept))),
    syncFlag(db, userId),
  ]);
}

/** Push off: one device (its endpoint), or every device of the member. */
export async function deleteSubscriptions(d1: D1Database, userId: string, endpoint?: string) {
  const db = getDb(d1);
  const mine = eq(pushSubscriptions.userId, userId);
  await db.batch([
    db.delete(pushSubscriptions).where(endpoint ? and(mine, eq(pushSubscriptions.endpoint, endpoint)) : mine),
    syncFlag(db, userId),
  ]);
}

/** users.push_subscribed mirrors "has a device" (the 300 s re-fetch, docs/product/limits.md §9). */
const syncFlag = (db: Db, userId: string) =>
  db
    .update(users)
    .set({
      pushSubscribed: sql`EXISTS ${db
        .select({ one: sql`1` })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))}`,
    })
    .where(eq(users.id, userId));

type PushTable = typeof pushSubscriptions;
const others = alias(pushSubscriptions, "s");

/**
 * Before the devices matching `where` leave their owners: each owner's flag as it will be without
 * them. It must run in the batch before the move or delete it prepares for.
 */
const ownersWithout = (db: Db, where: (t: PushTable) => SQL) =>
  db
    .update(users)
    .set({
      pushSubscribed: sql`EXISTS ${db
        .select({ one: sql`1` })
        .from(others)
        .where(and(eq(others.userId, users.id), not(where(others as unknown as PushTable))))}`,
    })
    .where(
      inArray(
        users.id,
        db.select({ userId: pushSubscriptions.userId }).from(pushSubscriptions).where(where(pushSubscriptions)),
      ),
    );

export async function subscriptionsOf(d1: D1Database, userId: string): Promise<StoredSubscription[]> {
  const { id, endpoint, p256dh, auth } = pushSubscriptions;
  return getDb(d1)
    .select({ id, endpoint, p256dh, auth })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(id);
}

// ---------------------------------------------------------------------------------------------
// Sending

/** What the service worker shows (public/sw.js). */
export type PushPayload = { title: string; body: string; icon?: string; url: string; tag?: string };
export type PushOutcome = "sent" | "gone" | "failed";

/** The push service behind one small interface; tests hand in a fetch that plays the push service. */
export interface PushSender {
  send(sub: StoredSubscription, payload: PushPayload): Promise<PushOutcome>;
}

export function webPushSender(env: PushEnv, fetcher: typeof fetch = fetch): PushSender {
  return {
    async send(sub, payload) {
      const vapid = await vapidKeys(env);
      const request = await buildPushPayload(
        {
          data: payload,
          options: { ttl: 24 * 3600, urgency: "high", ...(payload.tag ? { topic: payload.tag.slice(0, 32) } : {}) },
        },
        { endpoint: sub.endpoint, expirationTime: null, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        { subject: env.VAPID_SUBJECT, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      );
      const res = await fetcher(sub.endpoint, { method: "POST", headers: request.headers, body: request.body });
      if (res.status === 404 || res.status === 410) return "gone";
      return res.ok ? "sent" : "failed";
    },
  };
}

/** Forgets a subscription the push service no longer knows. */
export async function dropSubscription(d1: D1Database, sub: StoredSubscription, userId: string) {
  const db = getDb(d1);
  // The device may have moved to another member since it was read: whoever owns it now loses the flag if it was their last.
  await db.batch([
    ownersWithout(db, (t) => eq(t.id, sub.id)),
    db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id)),
    syncFlag(db, userId),
  ]);
}
