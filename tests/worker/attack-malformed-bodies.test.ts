/**
 * The clumsy client's and the attacker's view of request bodies (decision 081): every action
 * answers a JSON, text/plain, missing-content-type or broken multipart body with a 400 carrying a
 * translated message, and changes nothing. Never a 5xx.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sessionCookie } from "./fixtures";
import { pair } from "./chat-support";
import { memberWithPassword } from "./accounts-support";
import { unsubscribeSignature } from "../../app/models/notify.server";

type Body = { name: string; type: string | null; body: string };
const BAD: Body[] = [
  { name: "json", type: "application/json", body: '{"email":"a@b.c","password":"x"}' },
  { name: "text/plain", type: "text/plain", body: "email=a@b.c" },
  { name: "no content type", type: null, body: "email=a@b.c" },
  {
    name: "broken multipart",
    type: "multipart/form-data; boundary=zzz",
    body: '--zzz\r\nContent-Disposition: form-data; name="x"\r\n\r\nunterminated',
  },
  { name: "multipart without boundary", type: "multipart/form-data", body: "garbage" },
  { name: "xml", type: "application/xml", body: "<a/>" },
];

function raw(path: string, bad: Body, o: { cookie?: string; lng?: string; method?: string } = {}) {
  const headers = new Headers({ Host: "localhost", Origin: "http://localhost" });
  if (bad.type) headers.set("Content-Type", bad.type);
  const cookies = [o.cookie, o.lng ? `lng=${o.lng}` : null].filter(Boolean).join("; ");
  if (cookies) headers.set("Cookie", cookies);
  // A Uint8Array body gets no Content-Type of its own.
  return SELF.fetch(`http://localhost${path}`, {
    method: o.method ?? "POST",
    headers,
    body: new TextEncoder().encode(bad.body),
    redirect: "manual",
  });
}

const VISITOR_FORMS = [
  "/login",
  "/signup",
  "/reset-password",
  "/reset-password/do",
  "/activate",
  "/reactivate",
  "/mail-change/do",
  "/mail-change/undo",
  "/lang-config",
  "/api/site-entry",
];
const MEMBER_FORMS = [
  "/profile",
  "/profile/photos",
  "/settings",
  "/settings/delete",
  "/notifications",
  "/match-finder",
  "/swipe-game",
  "/signup-matches",
  "/complete-signup",
  "/chats",
  "/api/logout.php",
  "/credits",
  "/credits/repeat-order",
];

describe("malformed bodies answer 400, translated, and change nothing", () => {
  it("on every visitor form", async () => {
    for (const path of VISITOR_FORMS) {
      for (const bad of BAD) {
        const res = await raw(path, bad, { lng: "de" });
        expect(res.status, `${path} with ${bad.name}`).toBe(400);
        expect(await res.text(), `${path} with ${bad.name}`).toContain("Die Anfrage konnte nicht gelesen werden");
      }
    }
  });

  it("on every member form, and the member's data stays as it was", async () => {
    const { alice, bob, conversationId } = await pair();
    const cookie = await sessionCookie(alice.id);
    const before = await env.DB.prepare("SELECT * FROM profiles WHERE user_id = ?1").bind(alice.id).first();
    const paths = [...MEMBER_FORMS, `/members/${bob.id}`, `/members/${bob.id}/chat`, `/chats/${conversationId}`];
    for (const path of paths) {
      for (const bad of BAD) {
        const res = await raw(path, bad, { cookie });
        expect(res.status, `${path} with ${bad.name}`).toBe(400);
        expect(await res.text(), `${path} with ${bad.name}`).toContain("The request could not be read");
      }
    }
    expect(await env.DB.prepare("SELECT * FROM profiles WHERE user_id = ?1").bind(alice.id).first()).toEqual(before);
    const user = await env.DB.prepare("SELECT credits, deleted_at FROM users WHERE id = ?1").bind(alice.id).first();
    expect(user).toEqual({ credits: 100, deleted_at: null });
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?1").bind(alice.id).first("n"),
    ).toBe(1);
  });

  it("the JSON calls refuse broken JSON with a 400, not a guess", async () => {
    const m = await memberWithPassword();
    const cookie = await sessionCookie(m.id);
    const broken: Body = { name: "broken json", type: "application/json", body: '{"email":' };
    const login = await raw("/api/user.php", broken);
    expect(login.status).toBe(400);
    expect(await login.json()).toMatchObject({ error: "bad_request" });
    const put = await raw("/api/user.php", broken, { cookie, method: "PUT" });
    expect(put.status).toBe(400);
    const del = await raw("/api/chat.php", broken, { cookie, method: "DELETE" });
    expect(del.status).toBe(400);
    for (const bad of BAD.filter((b) => b.type !== "application/json" && !b.type?.startsWith("multipart"))) {
      expect((await raw("/api/user.php", bad)).status, bad.name).toBe(400);
    }
  });

  it("an oversized form body is refused before it is read", async () => {
    const big: Body = { name: "huge", type: "application/x-www-form-urlencoded", body: `email=${"a".repeat(300_000)}` };
    const res = await raw("/login", big);
    expect(res.status).toBe(413);
  });

  describe("/directdebit and /unsubscribe read their bodies through the shared parser (decision 115)", () => {
    const HUGE: Body = {
      name: "huge",
      type: "application/x-www-form-urlencoded",
      body: `intent=details&package=p1&holder=${"a".repeat(300_000)}`,
    };
    const state = async (userId: string) => ({
      requests: await env.DB.prepare("SELECT COUNT(*) AS n FROM directdebit_requests WHERE user_id = ?1")
        .bind(userId)
        .first("n"),
      sms: await env.DB.prepare("SELECT COUNT(*) AS n FROM sms_outbox").first("n"),
      off: await env.DB.prepare("SELECT COUNT(*) AS n FROM notifications_disabled WHERE user_id = ?1")
        .bind(userId)
        .first("n"),
    });

    it("/directdebit: malformed → translated 400, oversized → 413, nothing stored or sent", async () => {
      const m = await memberWithPassword();
      const cookie = `${await sessionCookie(m.id)}; dev_country=NL`;
      const before = await state(m.id);
      for (const bad of BAD) {
        const res = await raw("/directdebit?package=p1", bad, { cookie, lng: "de" });
        expect(res.status, bad.name).toBe(400);
        expect(await res.text(), bad.name).toContain("Die Anfrage konnte nicht gelesen werden");
      }
      expect((await raw("/directdebit?package=p1", HUGE, { cookie })).status).toBe(413);
      expect(await state(m.id)).toEqual(before);
    });

    it("/unsubscribe: a signed link with a malformed or oversized body unsubscribes nothing", async () => {
      const m = await memberWithPassword();
      const query = `u=${m.id}&t=like&s=${await unsubscribeSignature(env, m.id, "like")}`;
      for (const bad of BAD) {
        const res = await raw(`/unsubscribe?${query}`, bad, { lng: "de" });
        expect(res.status, bad.name).toBe(400);
        expect(await res.text(), bad.name).toContain("Die Anfrage konnte nicht gelesen werden");
      }
      const huge: Body = {
        name: "huge",
        type: "application/x-www-form-urlencoded",
        body: `List-Unsubscribe=One-Click&x=${"a".repeat(300_000)}`,
      };
      expect((await raw(`/unsubscribe?${query}`, huge)).status).toBe(413);
      expect((await state(m.id)).off).toBe(0);
      // The mail client's real one-click POST still works.
      const ok = await raw(`/unsubscribe?${query}`, {
        name: "one-click",
        type: "application/x-www-form-urlencoded",
        body: "List-Unsubscribe=One-Click",
      });
      expect(ok.status).toBe(200);
      expect((await state(m.id)).off).toBe(1);
    });

    it("a body without Content-Length (chunked) is held to the same limit as it arrives", async () => {
      const m = await memberWithPassword();
      const query = `u=${m.id}&t=like&s=${await unsubscribeSignature(env, m.id, "like")}`;
      const chunk = new TextEncoder().encode(`x=${"a".repeat(16_000)}`);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < 20; i++) controller.enqueue(chunk);
          controller.close();
        },
      });
      const res = await SELF.fetch(`http://localhost/unsubscribe?${query}`, {
        method: "POST",
        body,
        headers: { Host: "localhost", "Content-Type": "application/x-www-form-urlencoded" },
        duplex: "half",
      } as RequestInit);
      expect(res.status).toBe(413);
      expect((await state(m.id)).off).toBe(0);
      // The two webhooks read their raw bodies through the same counting reader.
      const stream = (n: number) =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < n; i++) controller.enqueue(chunk);
            controller.close();
          },
        });
      const hook = (path: string, type: string) =>
        SELF.fetch(`http://localhost${path}`, {
          method: "POST",
          body: stream(10),
          headers: { Host: "localhost", "Content-Type": type },
          duplex: "half",
        } as RequestInit);
      expect((await hook("/api/payments/webhook", "application/x-www-form-urlencoded")).status).toBe(400);
      expect((await hook("/api/mail-events", "application/json")).status).toBe(413);
    });
  });
});
