/**
 * Notifications: the queue between events and senders, every type of docs/product/limits.md §9 sent once and not
 * when switched off, Web Push (VAPID JWT, aes128gcm, 410), the consumer's retries, one-click
 * unsubscribe and the signed bounce/complaint webhook.
 */
import { createMessageBatch, env, getQueueResult, createExecutionContext, SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { mailerFor } from "../../app/models/mail.server";
import {
  deliver,
  handleNotifyBatch,
  scheduleInactiveReminders,
  scheduleNewMembersDigest,
  scheduleUnreadReminders,
  sendCampaign,
  unsubscribeSignature,
} from "../../app/models/notify.server";
import type { NotifyEvent } from "../../app/models/notify-events";
import { runCampaignPage } from "../../app/models/campaign-send.server";
import { dropSubscription, saveSubscription, subscriptionsOf } from "../../app/models/push.server";
import { like } from "../../app/models/likes.server";
import { cid, cookieOf, count, pair, roomRows, roomStub, PRICES } from "./chat-support";
import { createMember, get, post } from "./fixtures";
import enCommon from "../../locales/en/common.json";
import deCommon from "../../locales/de/common.json";
import { member, blockRow } from "./members-support";
import {
  browserSubscription,
  decryptAes128gcm,
  outboxMailer,
  payloadOf,
  pushService,
  recorded,
  byHand,
  senders,
  verifyVapid,
} from "./notify-support";

const mailsTo = (id: string) =>
  env.DB.prepare(
    'SELECT subject, text, html, headers FROM mail_outbox WHERE "to" = (SELECT email FROM users WHERE id = ?1) ORDER BY id',
  )
    .bind(id)
    .all<{ subject: string; text: string; html: string; headers: string | null }>()
    .then((r) => r.results);
const off = (userId: string, type: string, reason = "user") =>
  env.DB.prepare("INSERT INTO notifications_disabled (user_id, type, reason) VALUES (?1, ?2, ?3)")
    .bind(userId, type, reason)
    .run();
/** The last message's id as the chat hands it out (its number in the conversation, decision 089). */
const lastMessageId = async (conversationId: string) =>
  (await roomRows<{ seq: number }>(conversationId)).at(-1)?.seq ?? null;

async function subscribed(userId: string, endpoint?: string) {
  const sub = await browserSubscription(endpoint);
  await saveSubscription(env.DB, userId, sub.json);
  return sub;
}

describe("the queue between events and senders", () => {
  it("a message to an offline member reaches them by mail through the queue, once per unread burst", async () => {
    const { alice, bob, conversationId } = await pair({ name: "Alice" }, { language: "de" });
    const stub = roomStub(env, conversationId);
    await stub.send({ conversationId, senderId: alice.id, prices: PRICES, clientId: cid(), kind: "text", body: "one" });
    await stub.send({ conversationId, senderId: alice.id, prices: PRICES, clientId: cid(), kind: "text", body: "two" });
    await vi.waitFor(async () => expect((await mailsTo(bob.id)).length).toBe(1), { timeout: 8000, interval: 100 });
    const [mail] = await mailsTo(bob.id);
    // The first message of a conversation is a "new conversation", in the member's language.
    expect(mail!.subject).toBe("Alice hat eine Unterhaltung mit dir begonnen");
    expect(mail!.text).toContain(`http://localhost:8787/chats/${conversationId}`);
    const headers = JSON.parse(mail!.headers!) as Record<string, string>;
    expect(headers["List-Unsubscribe"]).toMatch(
      /^<http:\/\/localhost:8787\/unsubscribe\?u=.+&t=new_conversation&s=[0-9a-f]{32}>$/,
    );
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
  });
});

describe("the queue to the push service", () => {
  it("a message to a member who closed the site leaves the Worker as a Web Push request, through the queue's consumer", async () => {
    const { alice, bob, conversationId } = await pair({ name: "Alice" });
    const sub = await subscribed(bob.id);
    // The consumer's own senders (sendersFor) post with the global fetch: the push service answers here.
    const realFetch = globalThis.fetch;
    const pushes: { at: number; body: Uint8Array }[] = [];
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const req = new Request(input, init);
      if (req.url !== sub.json.endpoint) return realFetch(input, init);
      pushes.push({ at: performance.now(), body: new Uint8Array(await req.arrayBuffer()) });
      return recorded.fcmCreated();
    });
    try {
      const latencies: number[] = [];
      for (let i = 0; i < 5; i++) {
        // Bob has read everything (his read state lives in the room, decision 190).
        await roomStub(env, conversationId).read(conversationId, bob.id);
        const sentAt = performance.now();
        await roomStub(env, conversationId).send({
          conversationId,
          senderId: alice.id,
          prices: PRICES,
          clientId: cid(),
          kind: "text",
          body: `ping ${i}`,
        });
        await vi.waitFor(() => expect(pushes.length).toBe(i + 1), { timeout: 8000, interval: 20 });
        latencies.push(pushes[i]!.at - sentAt);
      }
      expect(JSON.parse(await decryptAes128gcm(pushes[0]!.body, sub))).toMatchObject({
        title: "Alice started a conversation with you",
      });
      expect(JSON.parse(await decryptAes128gcm(pushes[1]!.body, sub))).toMatchObject({
        title: "New message from Alice",
      });
      // The time from a message to its push request (printed for decision 120; the queue's max_batch_timeout is 1 s).
      console.log(`message → push request: ${latencies.map((ms) => ms.toFixed(0)).join(", ")} ms`);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("every notification type", () => {
  it("new message and new conversation: sent once, not when off, not after reading, not when blocked or invisible", async () => {
    const { alice, bob, conversationId } = await pair({ name: "Alice" });
    const mailer = outboxMailer(mailerFor(env));
    const s = senders({ mailer });
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hi",
    });
    const first: NotifyEvent = {
      kind: "message",
      conversationId,
      senderId: alice.id,
      receiverId: bob.id,
      messageId: (await lastMessageId(conversationId))!,
    };
    // The room queued this event too: whichever of the queue's consumer and this call comes first
    // sends it, and only once.
    await deliver(env, first, s);
    expect(await deliver(env, first, s)).toEqual({ mail: false, push: 0 });
    await vi.waitFor(async () =>
      expect((await mailsTo(bob.id)).map((m) => m.subject)).toEqual(["Alice started a conversation with you"]),
    );

    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "again",
    });
    const second: NotifyEvent = { ...first, messageId: (await lastMessageId(conversationId))! };
    await off(bob.id, "new_message");
    expect((await deliver(env, second, s)).mail).toBe(false);
    await env.DB.prepare("DELETE FROM notifications_disabled WHERE user_id = ?1").bind(bob.id).run();
    // Read meanwhile: nothing to tell.
    await env.DB.prepare("UPDATE conversation_members SET unread = 0 WHERE user_id = ?1").bind(bob.id).run();
    expect((await deliver(env, second, s)).mail).toBe(false);
    await env.DB.prepare("UPDATE conversation_members SET unread = 1 WHERE user_id = ?1").bind(bob.id).run();
    await env.DB.prepare("UPDATE users SET invisible = 1 WHERE id = ?1").bind(bob.id).run();
    expect((await deliver(env, second, s)).mail).toBe(false);
    await env.DB.prepare("UPDATE users SET invisible = 0 WHERE id = ?1").bind(bob.id).run();
    await blockRow(bob.id, alice.id);
    expect((await deliver(env, second, s)).mail).toBe(false);
    await env.DB.prepare("DELETE FROM blocks WHERE blocker_id = ?1").bind(bob.id).run();
    expect((await deliver(env, second, s)).mail).toBe(true);
    expect((await mailsTo(bob.id)).map((m) => m.subject)).toEqual([
      "Alice started a conversation with you",
      "New message from Alice",
    ]);
    // A team-run sender is named with its mark, and the mail says who writes (decision 179).
    await env.DB.prepare("UPDATE profiles SET fictional = 1 WHERE user_id = ?1").bind(alice.id).run();
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "from the team",
    });
    const third: NotifyEvent = { ...first, messageId: (await lastMessageId(conversationId))! };
    expect((await deliver(env, third, s)).mail).toBe(true);
    expect(mailer.sent.at(-1)!.subject).toBe("New message from 🎭 Alice (Team-run profile)");
    expect(mailer.sent.at(-1)!.text).toContain(enCommon.fictional.warning);
  });

  it("like and match: mail and push once each; not when likes are off", async () => {
    const liker = await createMember({ name: "Lina" });
    const liked = await createMember({ name: "Mo", gender: "male" });
    const mailer = outboxMailer(mailerFor(env));
    const push = pushService();
    const sub = await subscribed(liked.id);
    const s = senders({ mailer, push });
    await like({ env: byHand }, liker.id, liked.id);
    const ev: NotifyEvent = { kind: "like", likerId: liker.id, likedId: liked.id };
    expect(await deliver(env, ev, s)).toEqual({ mail: true, push: 1 });
    expect(await deliver(env, ev, s)).toEqual({ mail: false, push: 0 });
    expect(await payloadOf(push.received[0]!, sub)).toMatchObject({
      title: "Lina likes you",
      url: `/likes/m/${liker.id}`,
    });
    // Liked back: the other one hears of the match.
    await like({ env: byHand }, liked.id, liker.id);
    expect((await deliver(env, { kind: "like", likerId: liked.id, likedId: liker.id }, s)).mail).toBe(true);
    expect(mailer.sent.at(-1)!.subject).toBe("It's a match with Mo!");
    const other = await createMember({ name: "Nia" });
    await like({ env: byHand }, other.id, liked.id);
    await off(liked.id, "like");
    expect(await deliver(env, { kind: "like", likerId: other.id, likedId: liked.id }, s)).toEqual({
      mail: false,
      push: 0,
    });
  });

  it("a like says what happened: an automatic like is a suggestion, no match from one, a team profile carries its mark (decision 179)", async () => {
    const me = await member({ name: "Mo", gender: "male" });
    const team = await member({ name: "Tessa", fictional: true });
    const mailer = outboxMailer(mailerFor(env));
    const push = pushService();
    const sub = await subscribed(me.id);
    const s = senders({ mailer, push });
    // An automatic like (GET /api/auto-like.php) was nobody's choice: a suggestion, with the team mark.
    await env.DB.prepare("INSERT INTO likes (liker_id, liked_id, source) VALUES (?1, ?2, 'auto')")
      .bind(team.id, me.id)
      .run();
    expect(await deliver(env, { kind: "like", likerId: team.id, likedId: me.id }, s)).toEqual({ mail: true, push: 1 });
    const mail = mailer.sent.at(-1)!;
    expect(mail.subject).toBe("🎭 Tessa (Team-run profile) was suggested to you");
    expect(mail.text).toContain("This is an automatic suggestion: 🎭 Tessa (Team-run profile) did not choose you.");
    expect(mail.text).toContain(enCommon.fictional.warning);
    expect(mail.subject).not.toMatch(/likes you/);
    expect(await payloadOf(push.received.at(-1)!, sub)).toMatchObject({
      title: "🎭 Tessa (Team-run profile) was suggested to you",
    });

    // A real member whom the auto-like picked never chose: the like back is a like, not "a match".
    const picked = await member({ name: "Lina", language: "de" });
    await env.DB.prepare("INSERT INTO likes (liker_id, liked_id, source) VALUES (?1, ?2, 'auto')")
      .bind(picked.id, me.id)
      .run();
    await like({ env: byHand }, me.id, picked.id);
    expect((await deliver(env, { kind: "like", likerId: me.id, likedId: picked.id }, s)).mail).toBe(true);
    expect(mailer.sent.at(-1)!.subject).toBe("Mo mag dich");

    // A team profile's chosen like, to a German member of an English brand: the translated label and warning.
    const de = await member({ name: "Jonas", gender: "male", language: "de" });
    await like({ env: byHand }, team.id, de.id);
    expect((await deliver(env, { kind: "like", likerId: team.id, likedId: de.id }, s)).mail).toBe(true);
    expect(mailer.sent.at(-1)!.subject).toBe("🎭 Tessa (Vom Team betriebenes Profil) mag dich");
    expect(mailer.sent.at(-1)!.text).toContain(deCommon.fictional.warning);
  });

  it("unread reminder, new members digest and inactive reminder: scheduled by the cron, sent once per period, not when off", async () => {
    const now = Math.floor(Date.now() / 1000);
    const { alice, bob, conversationId } = await pair({ name: "Alice" });
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hello?",
    });
    await env.DB.prepare("UPDATE conversation_members SET last_activity_at = ?2 WHERE conversation_id = ?1")
      .bind(conversationId, now - 30 * 3600)
      .run();
    const sent = vi.spyOn(env.NOTIFY_QUEUE, "sendBatch");
    expect(await scheduleUnreadReminders(env, now)).toBeGreaterThanOrEqual(1);
    const events = sent.mock.calls.flatMap((c) => [...c[0]].map((m) => m.body as NotifyEvent));
    const mine = events.find((e) => e.kind === "digest" && e.userId === bob.id)!;
    expect(mine).toMatchObject({ kind: "digest", type: "unread_reminder" });
    const mailer = outboxMailer(mailerFor(env));
    const s = senders({ mailer });
    expect((await deliver(env, mine, s)).mail).toBe(true);
    expect((await deliver(env, mine, s)).mail).toBe(false);
    expect(mailer.sent[0]!.subject).toBe("You have unread messages");

    // New members near a member (same country and region, the other gender), weekly.
    const reader = await member({ name: "Rita", gender: "female", country: "NL", region: "NH" });
    await member({ name: "Sam", gender: "male", country: "NL", region: "NH" });
    await member({ name: "Far", gender: "male", country: "NL", region: "GR" });
    sent.mockClear();
    await scheduleNewMembersDigest(env, new Date());
    const digest = sent.mock.calls
      .flatMap((c) => [...c[0]].map((m) => m.body as NotifyEvent))
      .find((e) => e.kind === "digest" && e.userId === reader.id)!;
    expect((await deliver(env, digest, s)).mail).toBe(true);
    expect(mailer.sent.at(-1)!.text).toContain("Sam");
    expect(mailer.sent.at(-1)!.text).not.toContain("Far");
    expect((await deliver(env, digest, s)).mail).toBe(false);

    // Inactive for three weeks: a reminder once a month; not when switched off.
    const away = await member({ name: "Away", lastSeenAt: now - 21 * 86400 });
    const away2 = await member({ name: "Away2", lastSeenAt: now - 21 * 86400 });
    await off(away2.id, "reminders");
    sent.mockClear();
    await scheduleInactiveReminders(env, new Date());
    const reminders = sent.mock.calls
      .flatMap((c) => [...c[0]].map((m) => m.body as NotifyEvent))
      .filter((e) => e.kind === "digest");
    expect(reminders.some((e) => e.kind === "digest" && e.userId === away.id)).toBe(true);
    expect(reminders.some((e) => e.kind === "digest" && e.userId === away2.id)).toBe(false);
    const r = reminders.find((e) => e.kind === "digest" && e.userId === away.id)!;
    expect((await deliver(env, r, s)).mail).toBe(true);
    expect((await deliver(env, r, s)).mail).toBe(false);
    expect(mailer.sent.at(-1)!.subject).toBe("We miss you on Amora");
    // The reminder does not know who is online now, so it does not say so (decision 179).
    expect(mailer.sent.at(-1)!.text).not.toMatch(/online/i);
    sent.mockRestore();
  });

  it("promotions and news: an operator's campaign reaches members who want it, once", async () => {
    const fan = await createMember({ brandId: 3, language: "nl" });
    const quiet = await createMember({ brandId: 3 });
    await off(quiet.id, "promotions");
    // The campaign's pages go through the queue (decision 183): its page is run here, its events kept from the consumer.
    const page = vi.spyOn(env.NOTIFY_QUEUE, "send").mockResolvedValue(undefined as never);
    const sent = vi.spyOn(env.NOTIFY_QUEUE, "sendBatch").mockResolvedValue(undefined as never);
    await sendCampaign(env, { type: "promotions", brandId: 3, ref: "spring-2026", path: "/credits" });
    const { campaignId } = page.mock.calls[0]![0] as { campaignId: number };
    await runCampaignPage(env, campaignId, undefined, 1_000_000);
    const events = sent.mock.calls.flatMap((c) => [...c[0]].map((m) => m.body as NotifyEvent));
    sent.mockRestore();
    page.mockRestore();
    expect(events.some((e) => e.kind === "campaign" && e.userId === quiet.id)).toBe(false);
    const mine = events.find((e) => e.kind === "campaign" && e.userId === fan.id)!;
    const mailer = outboxMailer(mailerFor(env));
    expect((await deliver(env, mine, senders({ mailer }))).mail).toBe(true);
    expect((await deliver(env, mine, senders({ mailer }))).mail).toBe(false);
    expect(mailer.sent[0]!.subject).toBe("Een speciale aanbieding van Flirtlokaal");
    expect(mailer.sent[0]!.text).toContain("http://nl.localhost:8787/credits");
    const news = { kind: "campaign", type: "news", userId: fan.id, ref: "launch", path: "/" } as const;
    expect((await deliver(env, news, senders({ mailer }))).mail).toBe(true);
    expect(mailer.sent[1]!.subject).toBe("Nieuws van Flirtlokaal");
  });
});

describe("Web Push", () => {
  it("the push service receives a VAPID-signed request whose aes128gcm body decrypts to the notification", async () => {
    const { alice, bob, conversationId } = await pair({ name: "Alice" });
    const sub = await subscribed(bob.id);
    const push = pushService(201);
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hi",
    });
    const ev: NotifyEvent = {
      kind: "message",
      conversationId,
      senderId: alice.id,
      receiverId: bob.id,
      messageId: (await lastMessageId(conversationId))!,
    };
    expect(await deliver(env, ev, senders({ mailer: outboxMailer(mailerFor(env)), push }))).toEqual({
      mail: true,
      push: 1,
    });
    const req = push.received[0]!;
    expect(req.url).toBe(sub.json.endpoint);
    expect(req.headers.get("content-encoding")).toBe("aes128gcm");
    expect(Number(req.headers.get("ttl"))).toBeGreaterThan(0);
    const vapid = await verifyVapid(req.headers.get("authorization")!, req.url);
    expect(vapid).toMatchObject({
      valid: true,
      alg: "ES256",
      claims: { aud: "https://fcm.googleapis.com", sub: env.VAPID_SUBJECT },
    });
    expect(vapid.claims.exp).toBeGreaterThan(Date.now() / 1000);
    // The key the site hands to browsers is the one that signed.
    const keyRes = await get("/api/user.php?push=1", { cookie: await cookieOf(bob.id) });
    expect(((await keyRes.json()) as { public_key: string }).public_key).toBe(vapid.publicKey);
    expect(await payloadOf(req, sub)).toEqual({
      title: "Alice started a conversation with you",
      body: "Alice sent you a first message on Amora.",
      url: `/chats/${conversationId}`,
      tag: `chat-${conversationId}`,
      icon: "/icons/icon-192.png",
    });
  });

  it("an expired subscription (410 or 404) is deleted; the other devices still get it; a busy push service is retried", async () => {
    const liker = await createMember({ name: "Lina" });
    const liked = await createMember({ gender: "male" });
    const chrome = await subscribed(liked.id, "https://fcm.googleapis.com/fcm/send/gone-device");
    const firefox = await subscribed(liked.id, "https://updates.push.services.mozilla.com/wpush/v2/gone-device");
    const alive = await subscribed(liked.id, "https://fcm.googleapis.com/fcm/send/live-device");
    const answers: Record<string, () => Response> = {
      [chrome.json.endpoint]: recorded.fcmGone,
      [firefox.json.endpoint]: recorded.mozillaNotFound,
      [alive.json.endpoint]: recorded.fcmCreated,
    };
    const push = pushService(() => answers[push.received.at(-1)!.url]!());
    await like({ env: byHand }, liker.id, liked.id);
    const ev: NotifyEvent = { kind: "like", likerId: liker.id, likedId: liked.id };
    expect((await deliver(env, ev, senders({ mailer: outboxMailer(mailerFor(env)), push }))).push).toBe(1);
    expect((await subscriptionsOf(env.DB, liked.id)).map((s) => s.endpoint)).toEqual([alive.json.endpoint]);
    expect(await count("SELECT push_subscribed AS n FROM users WHERE id = ?1", liked.id)).toBe(1);

    // 429 from the push service: the subscription stays, the event is retried (and then sent once).
    const other = await createMember({ name: "Olli" });
    await like({ env: byHand }, other.id, liked.id);
    const busy = pushService(() => recorded.mozillaTooMany());
    const ev2: NotifyEvent = { kind: "like", likerId: other.id, likedId: liked.id };
    await expect(deliver(env, ev2, senders({ mailer: outboxMailer(mailerFor(env)), push: busy }))).rejects.toThrow();
    expect((await subscriptionsOf(env.DB, liked.id)).length).toBe(1);
    const ok = pushService(() => recorded.fcmCreated());
    expect(await deliver(env, ev2, senders({ mailer: outboxMailer(mailerFor(env)), push: ok }))).toEqual({
      mail: false,
      push: 1,
    });
  });

  it("POST /api/user.php?push=1 stores a device (several per member); bad input 400; visitors 401; DELETE turns push off", async () => {
    const m = await createMember();
    const cookie = await cookieOf(m.id);
    const send = (method: string, body: unknown, c: string | null = cookie) =>
      SELF.fetch("http://localhost/api/user.php?push=1", {
        method,
        body: typeof body === "string" ? body : JSON.stringify(body),
        headers: {
          Host: "localhost",
          Origin: "http://localhost",
          "Content-Type": "application/json",
          ...(c ? { Cookie: c } : {}),
        },
      });
    const phone = await browserSubscription();
    const laptop = await browserSubscription();
    expect((await send("POST", phone.json, null)).status).toBe(401);
    expect((await send("POST", phone.json)).status).toBe(200);
    expect((await send("POST", { subscription: laptop.json })).status).toBe(200);
    expect((await send("POST", phone.json)).status).toBe(200);
    expect(await count("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?1", m.id)).toBe(2);
    expect(await count("SELECT push_subscribed AS n FROM users WHERE id = ?1", m.id)).toBe(1);
    for (const bad of [
      "{not json",
      {},
      { ...phone.json, endpoint: "http://insecure.example/x" },
      { ...phone.json, keys: { p256dh: "short", auth: phone.json.keys.auth } },
      { ...phone.json, endpoint: `https://fcm.googleapis.com/fcm/send/${"x".repeat(5000)}` },
      // Not a push service: the Worker would post to it.
      { ...phone.json, endpoint: "https://attacker.example/collect" },
      { ...phone.json, endpoint: "https://fcm.googleapis.com.attacker.example/x" },
      { ...phone.json, endpoint: "https://fcm.googleapis.com:8443/fcm/send/x" },
    ]) {
      expect([400, 413]).toContain((await send("POST", bad)).status);
    }
    expect(await count("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?1", m.id)).toBe(2);
    // Another member cannot remove this member's device; the member can, one or all.
    const other = await createMember();
    await send("DELETE", { endpoint: phone.json.endpoint }, await cookieOf(other.id));
    expect(await count("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?1", m.id)).toBe(2);
    await send("DELETE", { endpoint: phone.json.endpoint });
    expect(await count("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?1", m.id)).toBe(1);
    await send("DELETE", {});
    expect(await count("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?1", m.id)).toBe(0);
    expect(await count("SELECT push_subscribed AS n FROM users WHERE id = ?1", m.id)).toBe(0);
  });
});

describe("a device that moves to another member (decision 115)", () => {
  const flag = (id: string) => count("SELECT push_subscribed AS n FROM users WHERE id = ?1", id);
  const send = async (cookie: string, body: unknown) =>
    SELF.fetch("http://localhost/api/user.php?push=1", {
      method: "POST",
      body: JSON.stringify(body),
      headers: { Host: "localhost", Origin: "http://localhost", "Content-Type": "application/json", Cookie: cookie },
    });

  it("posted by member B, the endpoint leaves A: A's flag follows (off with no device left, on with another)", async () => {
    const a = await createMember();
    const b = await createMember();
    const shared = await browserSubscription();
    expect((await send(await cookieOf(a.id), shared.json)).status).toBe(200);
    expect(await flag(a.id)).toBe(1);
    // The same browser profile, now logged in as B.
    expect((await send(await cookieOf(b.id), shared.json)).status).toBe(200);
    expect(await count("SELECT COUNT(*) AS n FROM push_subscriptions WHERE user_id = ?1", a.id)).toBe(0);
    expect(await flag(b.id)).toBe(1);
    expect(await flag(a.id)).toBe(0);

    // A member with a second device keeps the flag when one of them moves away.
    const c = await createMember();
    const own = await subscribed(c.id);
    const moving = await subscribed(c.id);
    await saveSubscription(env.DB, b.id, moving.json);
    expect(await flag(c.id)).toBe(1);
    expect((await subscriptionsOf(env.DB, c.id)).map((s) => s.endpoint)).toEqual([own.json.endpoint]);
  });

  it("a device the push service calls gone after it moved: its new owner's flag follows", async () => {
    const a = await createMember();
    const b = await createMember();
    const sub = await subscribed(a.id);
    const [stored] = await subscriptionsOf(env.DB, a.id);
    await saveSubscription(env.DB, b.id, sub.json);
    // The sender read it as A's device; the push service answers 410 and it is dropped.
    await dropSubscription(env.DB, stored!, a.id);
    expect(await count("SELECT COUNT(*) AS n FROM push_subscriptions WHERE endpoint = ?1", sub.json.endpoint)).toBe(0);
    expect(await flag(b.id)).toBe(0);
    expect(await flag(a.id)).toBe(0);
  });
});

describe("the consumer retries", () => {
  it("a failed mail is retried with a delay; the retry sends it once; other messages of the batch are acked", async () => {
    const liker = await createMember({ name: "Lina" });
    const liked = await createMember({ gender: "male" });
    const liked2 = await createMember({ gender: "male" });
    await like({ env: byHand }, liker.id, liked.id);
    await like({ env: byHand }, liker.id, liked2.id);
    const mailer = outboxMailer(mailerFor(env), 1);
    const s = senders({ mailer });
    const batch = createMessageBatch<NotifyEvent>("notifications", [
      { id: "a", timestamp: new Date(), attempts: 1, body: { kind: "like", likerId: liker.id, likedId: liked.id } },
      { id: "b", timestamp: new Date(), attempts: 1, body: { kind: "like", likerId: liker.id, likedId: liked2.id } },
    ]);
    const ctx = createExecutionContext();
    await handleNotifyBatch(batch, env, s);
    const result = await getQueueResult(batch, ctx);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["a"]);
    expect(result.explicitAcks).toEqual(["b"]);
    expect(mailer.sent.length).toBe(1);
    // The queue delivers it again: now it goes out, once.
    const again = createMessageBatch<NotifyEvent>("notifications", [
      { id: "a", timestamp: new Date(), attempts: 2, body: { kind: "like", likerId: liker.id, likedId: liked.id } },
    ]);
    await handleNotifyBatch(again, env, s);
    expect((await getQueueResult(again, createExecutionContext())).explicitAcks).toEqual(["a"]);
    expect(mailer.sent.map((m) => m.to)).toEqual([liked2.email, liked.email]);
  });
});

describe("unsubscribe, bounces and complaints", () => {
  it("one-click unsubscribe (RFC 8058) switches that type's e-mail off; a forged link changes nothing", async () => {
    const m = await createMember();
    const s = await unsubscribeSignature(env, m.id, "like");
    const oneClick = (query: string) =>
      SELF.fetch(`http://localhost/unsubscribe?${query}`, {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
        headers: { Host: "localhost", "Content-Type": "application/x-www-form-urlencoded" },
      });
    expect((await oneClick(`u=${m.id}&t=like&s=${"0".repeat(32)}`)).status).toBe(400);
    expect((await oneClick(`u=${m.id}&t=news&s=${s}`)).status).toBe(400);
    expect(await count("SELECT COUNT(*) AS n FROM notifications_disabled WHERE user_id = ?1", m.id)).toBe(0);
    expect((await oneClick(`u=${m.id}&t=like&s=${s}`)).status).toBe(200);
    expect(
      await env.DB.prepare("SELECT type, reason FROM notifications_disabled WHERE user_id = ?1")
        .bind(m.id)
        .all()
        .then((r) => r.results),
    ).toEqual([{ type: "like", reason: "list_unsubscribe" }]);
    // The GET shows a button and changes nothing.
    const page = await get(`/unsubscribe?u=${m.id}&t=news&s=${await unsubscribeSignature(env, m.id, "news")}`);
    expect(await page.text()).toContain('name="t" value="news"');
    expect(await count("SELECT COUNT(*) AS n FROM notifications_disabled WHERE user_id = ?1", m.id)).toBe(1);
  });

  it("the webhook records bounces and complaints only with a valid signature; the member sees why in /notifications", async () => {
    const m = await createMember({ email: `bouncy-${Date.now()}@example.com` });
    const sign = async (body: string) => {
      const key = await crypto.subtle.importKey(
        "raw",
        new TextEncoder().encode(env.MAIL_WEBHOOK_SECRET),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body)));
      return `sha256=${[...mac].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
    };
    const hook = (body: string, signature?: string) =>
      SELF.fetch("http://localhost/api/mail-events", {
        method: "POST",
        body,
        headers: {
          Host: "localhost",
          "Content-Type": "application/json",
          ...(signature ? { "X-Signature": signature } : {}),
        },
      });
    const body = JSON.stringify({ type: "bounce", email: m.email.toUpperCase() });
    expect((await hook(body)).status).toBe(401);
    expect((await hook(body, await sign(body.replace("bounce", "spam_complaint")))).status).toBe(401);
    expect((await hook("{", await sign("{"))).status).toBe(400);
    expect(await count("SELECT COUNT(*) AS n FROM notifications_disabled WHERE user_id = ?1", m.id)).toBe(0);
    expect((await hook(body, await sign(body))).status).toBe(200);
    expect(
      await count("SELECT COUNT(*) AS n FROM notifications_disabled WHERE user_id = ?1 AND reason = 'bounce'", m.id),
    ).toBe(8);
    // E-mail stops, push goes on.
    const push = pushService();
    const liker = await createMember({ name: "Lina" });
    await subscribed(m.id);
    await like({ env: byHand }, liker.id, m.id);
    expect(
      await deliver(
        env,
        { kind: "like", likerId: liker.id, likedId: m.id },
        senders({ mailer: outboxMailer(mailerFor(env)), push }),
      ),
    ).toEqual({ mail: false, push: 1 });
    // The settings page says why, and saving the types turns e-mail on again.
    const cookie = await cookieOf(m.id);
    expect(await (await get("/notifications", { cookie })).text()).toContain("alert-warning");
    await post("/notifications", { enabled: "like" }, { cookie });
    expect(
      await count("SELECT COUNT(*) AS n FROM notifications_disabled WHERE user_id = ?1 AND type = 'like'", m.id),
    ).toBe(0);
  });
});
