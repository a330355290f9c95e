/**
 * Helpers for the notification worker tests: a push service on the other end of fetch that checks
 * the VAPID JWT and decrypts the aes128gcm body (RFC 8291) with the subscription's own keys, as a
 * browser's push service and the browser would.
 */
import { env } from "cloudflare:test";
import type { Mail, Mailer } from "../../app/models/mail.server";
import type { Senders } from "../../app/models/notify.server";
import { webPushSender, type PushPayload } from "../../app/models/push.server";

const enc = new TextEncoder();
export const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
export const fromB64url = (s: string) =>
  Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4)), (c) =>
    c.charCodeAt(0),
  );

/** A browser's push subscription: an ECDH key pair and an auth secret, with its endpoint on the fake push service. */
export async function browserSubscription(endpoint = `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`) {
  const keys = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", keys.publicKey)) as ArrayBuffer);
  const auth = crypto.getRandomValues(new Uint8Array(16));
  return {
    json: { endpoint, expirationTime: null, keys: { p256dh: b64url(publicRaw), auth: b64url(auth) } },
    privateKey: keys.privateKey,
    publicRaw,
    auth,
  };
}
export type BrowserSubscription = Awaited<ReturnType<typeof browserSubscription>>;

async function hmac(key: Uint8Array, data: Uint8Array) {
  const k = await crypto.subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, data as BufferSource));
}
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) {
    out.set(p, i);
    i += p.length;
  }
  return out;
};

/** RFC 8291 + RFC 8188: what the browser does with the body. */
export async function decryptAes128gcm(body: Uint8Array, sub: BrowserSubscription): Promise<string> {
  const salt = body.slice(0, 16);
  const idlen = body[20]!;
  const serverPublic = body.slice(21, 21 + idlen);
  const ciphertext = body.slice(21 + idlen);
  const serverKey = await crypto.subtle.importKey(
    "raw",
    serverPublic,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const ecdh = new Uint8Array(await crypto.subtle.deriveBits({ name: "ECDH", public: serverKey }, sub.privateKey, 256));
  const prkKey = await hmac(sub.auth, ecdh);
  const ikm = (
    await hmac(prkKey, concat(enc.encode("WebPush: info\0"), sub.publicRaw, serverPublic, new Uint8Array([1])))
  ).slice(0, 32);
  const prk = await hmac(salt, ikm);
  const cek = (await hmac(prk, concat(enc.encode("Content-Encoding: aes128gcm\0"), new Uint8Array([1])))).slice(0, 16);
  const nonce = (await hmac(prk, concat(enc.encode("Content-Encoding: nonce\0"), new Uint8Array([1])))).slice(0, 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, ciphertext));
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return new TextDecoder().decode(padded.slice(0, end));
}

/** RFC 8292: checks the JWT's ES256 signature with the key in `k`, and its claims. */
export async function verifyVapid(authorization: string, endpoint: string) {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(authorization);
  if (!m) throw new Error(`not a vapid header: ${authorization}`);
  const [header, payload, signature] = m[1]!.split(".") as [string, string, string];
  const key = await crypto.subtle.importKey("raw", fromB64url(m[2]!), { name: "ECDSA", namedCurve: "P-256" }, false, [
    "verify",
  ]);
  const valid = await crypto.subtle.verify(
    { name: "ECDSA", hash: "SHA-256" },
    key,
    fromB64url(signature),
    enc.encode(`${header}.${payload}`),
  );
  const claims = JSON.parse(new TextDecoder().decode(fromB64url(payload))) as { aud: string; exp: number; sub: string };
  return {
    valid,
    claims,
    publicKey: m[2]!,
    alg: JSON.parse(new TextDecoder().decode(fromB64url(header))).alg as string,
    aud: new URL(endpoint).origin,
  };
}

export type PushRequest = { url: string; headers: Headers; body: Uint8Array };

/**
 * Answers recorded from the real push services (headers trimmed to what matters): FCM (Chrome) accepts
 * with 201 and a Location, and answers 410 in plain text for a subscription that is gone; Mozilla's
 * autopush (Firefox) answers errors as JSON with an errno (autopush-rs docs, "Error Codes").
 */
export const recorded = {
  fcmCreated: () =>
    new Response(null, {
      status: 201,
      headers: { Location: "https://fcm.googleapis.com/0:1763892000000000%2Be3f1a5c2f9fd7ecd", "Content-Length": "0" },
    }),
  fcmGone: () =>
    new Response("push subscription has unsubscribed or expired.\n", {
      status: 410,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    }),
  mozillaNotFound: () =>
    new Response(
      JSON.stringify({ code: 404, errno: 102, error: "Not Found", message: "Request did not validate invalid token" }),
      {
        status: 404,
        headers: { "Content-Type": "application/json" },
      },
    ),
  mozillaTooMany: () =>
    new Response(JSON.stringify({ code: 429, errno: 999, error: "Too Many Requests", message: "Too many messages" }), {
      status: 429,
      headers: { "Content-Type": "application/json", "Retry-After": "60" },
    }),
};

/** A push service answering `status` (or a recorded response); records each request it receives. */
export function pushService(status: number | (() => number | Response) = 201) {
  const received: PushRequest[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    received.push({ url: req.url, headers: req.headers, body: new Uint8Array(await req.arrayBuffer()) });
    const answer = typeof status === "function" ? status() : status;
    return typeof answer === "number" ? new Response(null, { status: answer }) : answer;
  }) as typeof fetch;
  return { received, fetcher };
}

/** Mail through the real outbox, optionally failing the first `failures` sends. */
export function outboxMailer(real: Mailer, failures = 0): Mailer & { sent: Mail[] } {
  let left = failures;
  const sent: Mail[] = [];
  return {
    sent,
    async send(mail) {
      if (left-- > 0) throw new Error("mail service unavailable");
      sent.push(mail);
      await real.send(mail);
    },
  };
}

export function senders(o: { mailer: Mailer; push?: ReturnType<typeof pushService> }): Senders {
  return { mailer: o.mailer, push: webPushSender(env, (o.push ?? pushService()).fetcher) };
}

export const payloadOf = async (req: PushRequest, sub: BrowserSubscription) =>
  JSON.parse(await decryptAes128gcm(req.body, sub)) as PushPayload;

/**
 * The env with a notification queue that drops what is sent: a test that delivers an event by hand
 * (deliver, handleNotifyBatch) must not race the real consumer delivering the same event (its
 * once-only key would make the test's delivery a skip whenever the consumer came first).
 */
export const byHand = {
  ...env,
  NOTIFY_QUEUE: { send: async () => {}, sendBatch: async () => {} } as unknown as Queue,
};
