import { describe, expect, it } from "vitest";
import {
  channelsOf,
  checkUnsubscribe,
  isoWeek,
  likePlan,
  mailEventSchema,
  refusal,
  retryDelay,
  unsubscribeSignature,
  verifyWebhook,
} from "~/models/notify.server";

type Facts = NonNullable<Parameters<typeof refusal>[0]>;
const facts = (o: Partial<Facts> = {}) =>
  ({ deleted_at: null, invisible: false, blocked: 0, sender_gone: 0, unread: 1, ...o }) as Facts;
const chat = { senderId: "s", conversationId: "c" };

describe("what a like says (decision 179)", () => {
  const plan = {
    ...chat,
    conversationId: null,
    type: "like",
    text: "like",
    userId: "u",
    key: "like:s",
    path: "/likes/m/s",
    push: true,
  } as const;
  it("an automatic like is a suggestion; a like back is a match only when the member's own like was chosen", () => {
    expect(likePlan(plan, { like_source: null, back_source: null }, "s")).toBeNull();
    expect(likePlan(plan, { like_source: "profile", back_source: null }, "s")).toMatchObject({ text: "like" });
    expect(likePlan(plan, { like_source: "auto", back_source: null }, "s")).toMatchObject({ text: "suggested" });
    expect(likePlan(plan, { like_source: "auto", back_source: "profile" }, "s")).toMatchObject({ text: "suggested" });
    expect(likePlan(plan, { like_source: "swipe", back_source: "profile" }, "s")).toMatchObject({
      text: "match",
      path: "/members/s",
    });
    expect(likePlan(plan, { like_source: "profile", back_source: "auto" }, "s")).toMatchObject({ text: "like" });
  });
});

describe("who gets nothing", () => {
  it("a deleted or unknown member, an invisible one, a blocked or gone sender, a conversation read meanwhile", () => {
    expect(refusal(facts(), chat)).toBeNull();
    expect(refusal(null, chat)).toBe("gone");
    expect(refusal(facts({ deleted_at: 1 }), chat)).toBe("gone");
    expect(refusal(facts({ invisible: true }), chat)).toBe("invisible");
    expect(refusal(facts({ blocked: 1 }), chat)).toBe("blocked");
    expect(refusal(facts({ sender_gone: 1 }), chat)).toBe("blocked");
    expect(refusal(facts({ unread: 0 }), chat)).toBe("read");
    // A digest has no sender and no conversation: blocks and unread counts do not matter.
    expect(refusal(facts({ blocked: 1, unread: null }), { senderId: null, conversationId: null })).toBeNull();
  });

  it("a type switched off by the member stops mail and push; a bounce, complaint or unsubscribe stops only mail", () => {
    expect(channelsOf(null, "like")).toEqual({ mail: true, push: true });
    expect(channelsOf("new_message:user", "like")).toEqual({ mail: true, push: true });
    expect(channelsOf("like:user", "like")).toEqual({ mail: false, push: false });
    expect(channelsOf("like:list_unsubscribe", "like")).toEqual({ mail: false, push: false });
    expect(channelsOf("like:bounce,news:bounce", "like")).toEqual({ mail: false, push: true });
    expect(channelsOf("like:spam_complaint", "like")).toEqual({ mail: false, push: true });
    // "new_message" must not match "new_members".
    expect(channelsOf("new_members:user", "new_message")).toEqual({ mail: true, push: true });
  });
});

describe("schedules and retries", () => {
  it("the weekly digest's key is the ISO week (the year turns over with the week)", () => {
    expect(isoWeek(new Date("2026-11-23T10:00:00Z"))).toBe("2026-W48");
    expect(isoWeek(new Date("2026-11-29T23:59:00Z"))).toBe("2026-W48");
    expect(isoWeek(new Date("2027-01-01T00:00:00Z"))).toBe("2026-W53");
    expect(isoWeek(new Date("2024-12-30T00:00:00Z"))).toBe("2025-W01");
  });

  it("retry delays double from 10 s and stop growing at 10 minutes", () => {
    expect([1, 2, 3, 4, 7, 20].map(retryDelay)).toEqual([10, 20, 40, 80, 600, 600]);
  });
});

describe("signed links and webhooks", () => {
  const env = { SESSION_SECRET: "s3cret", MAIL_WEBHOOK_SECRET: "hook-secret" };

  it("an unsubscribe link names one member and one type; any change to it is refused", async () => {
    const s = await unsubscribeSignature(env, "u1", "like");
    expect(s).toMatch(/^[0-9a-f]{32}$/);
    expect(await checkUnsubscribe(env, { u: "u1", t: "like", s })).toEqual({ userId: "u1", type: "like" });
    expect(await checkUnsubscribe(env, { u: "u2", t: "like", s })).toBeNull();
    expect(await checkUnsubscribe(env, { u: "u1", t: "news", s })).toBeNull();
    expect(await checkUnsubscribe(env, { u: "u1", t: "nonsense", s })).toBeNull();
    expect(await checkUnsubscribe(env, { u: "u1", t: "like", s: s.toUpperCase() })).toBeNull();
    expect(await checkUnsubscribe({ SESSION_SECRET: "other" }, { u: "u1", t: "like", s })).toBeNull();
    expect(await checkUnsubscribe(env, "u=u1")).toBeNull();
  });

  it("the mail webhook needs the HMAC of the exact body", async () => {
    const body = JSON.stringify({ type: "bounce", email: "a@example.com" });
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(env.MAIL_WEBHOOK_SECRET),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = Buffer.from(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body))).toString("hex");
    expect(await verifyWebhook(env, body, `sha256=${mac}`)).toBe(true);
    expect(await verifyWebhook(env, `${body} `, `sha256=${mac}`)).toBe(false);
    expect(await verifyWebhook(env, body, mac)).toBe(false);
    expect(await verifyWebhook(env, body, null)).toBe(false);
    expect(mailEventSchema().safeParse({ type: "bounce", email: " A@Example.com " }).data).toEqual({
      type: "bounce",
      email: "a@example.com",
    });
    expect(mailEventSchema().safeParse({ type: "delivered", email: "a@example.com" }).success).toBe(false);
  });
});

describe("push endpoints", () => {
  it("only the browsers' push services are accepted (the Worker posts to them)", async () => {
    const { isPushServiceUrl } = await import("~/models/push.server");
    for (const ok of [
      "https://fcm.googleapis.com/fcm/send/abc:def",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
      "https://web.push.apple.com/QGx",
      "https://wns2-par02p.notify.windows.com/w/?token=x",
    ])
      expect(isPushServiceUrl(ok)).toBe(true);
    for (const bad of [
      "http://fcm.googleapis.com/fcm/send/x",
      "https://fcm.googleapis.com.evil.example/x",
      "https://evil.example/fcm.googleapis.com",
      "https://fcm.googleapis.com:444/x",
      "https://127.0.0.1/x",
      "notaurl",
      "https://notify.windows.com.evil.example/",
    ])
      expect(isPushServiceUrl(bad)).toBe(false);
  });
});
