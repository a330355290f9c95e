/**
 * Decision 179: team-run profiles carry their mark in every list's data, an
 * automatic like is a suggestion, the composer shows a message's money value, and buying credits from
 * a chat returns there with the typed text, the return path checked against open redirects.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { conversationView, listConversations } from "../../app/models/chat.server";
import { likesApi, listLikes } from "../../app/models/likes.server";
import { appSetCookie, get, post, sessionCookie } from "./fixtures";
import { pair } from "./chat-support";
import { member } from "./members-support";

const fictional = (id: string) => env.DB.prepare("UPDATE profiles SET fictional = 1 WHERE user_id = ?1").bind(id).run();

describe("the label where people decide (decision 202)", () => {
  const WORDS: Record<string, string> = {
    en: "Team-run profile – replies come from our team and you cannot meet this person",
    de: "Vom Team betriebenes Profil – Antworten kommen von unserem Team, und du kannst diese Person nicht treffen",
    nl: "Profiel beheerd door ons team – antwoorden komen van ons team en je kunt deze persoon niet ontmoeten",
  };

  it("a team-run profile's own page says under the name, in text, who replies and that you cannot meet; a mark without emoji", async () => {
    const { alice, bob } = await pair();
    await fictional(bob.id);
    const cookie = await sessionCookie(alice.id);
    for (const [lng, words] of Object.entries(WORDS)) {
      const html = await (await get(`/members/${bob.id}`, { cookie: `${cookie}; lng=${lng}` })).text();
      const h1 = html.indexOf("</h1>");
      const label = html.indexOf('data-testid="fictional-label"');
      expect(label, lng).toBeGreaterThan(h1);
      const text = html.slice(label, html.indexOf("</p>", label));
      expect(text, lng).toContain(words);
      expect(text).toContain("<svg");
      // Neither the name nor the label depend on a colour-emoji font.
      expect(html.slice(html.indexOf("<h1"), label + text.length)).not.toContain("🎭");
      expect(html).not.toMatch(/Entertainment profile|Unterhaltungsprofil|Teamprofiel/i);
    }
    // A real member's page carries no label.
    const own = await (await get(`/members/${alice.id}`, { cookie: await sessionCookie(bob.id) })).text();
    expect(own).not.toContain('data-testid="fictional-label"');
  });
});

describe("team-run profiles are labelled in every list's data", () => {
  it("the conversation list and the conversation carry the other profile's fictional flag", async () => {
    const { alice, bob, conversationId } = await pair();
    await fictional(bob.id);
    const list = await listConversations(env.DB, alice.id);
    expect(list.find((c) => c.id === conversationId)).toMatchObject({ otherFictional: true });
    const view = await conversationView(env, conversationId, alice.id, 90);
    expect(view?.access.otherFictional).toBe(true);
    // The other side sees a real member: no mark.
    expect((await conversationView(env, conversationId, bob.id, 90))?.access.otherFictional).toBe(false);
  });

  it("the chat page shows the mark in the header and beside the composer, with the message's money value", async () => {
    const { alice, bob, conversationId } = await pair();
    await fictional(bob.id);
    const html = await (await get(`/chats/${conversationId}`, { cookie: await sessionCookie(alice.id) })).text();
    expect(html.match(/data-testid="fictional-mark"/g)?.length).toBe(2);
    expect(html).toContain("fictional-tag");
    // 1 credit in NL; the seeded packages sell a credit for €0.20 to €0.40.
    const cost = html.slice(
      html.indexOf('data-testid="chat-cost"'),
      html.indexOf("</p>", html.indexOf('data-testid="chat-cost"')),
    );
    expect(cost).toContain("A message costs 1 credit");
    expect(cost).toContain("about €0.20–€0.40");
  });

  it("an automatic like is a suggestion in the suggestions list and the likes API; a chosen like is not", async () => {
    const me = await member({ gender: "male" });
    const team = await member({ gender: "female", fictional: true });
    const person = await member({ gender: "female" });
    await env.DB.batch([
      env.DB.prepare("INSERT INTO likes (liker_id, liked_id, source) VALUES (?1, ?2, 'auto')").bind(team.id, me.id),
      env.DB.prepare("INSERT INTO likes (liker_id, liked_id, source) VALUES (?1, ?2, 'profile')").bind(
        person.id,
        me.id,
      ),
    ]);
    const received = await listLikes(env.DB, me.id, "received");
    const suggestions = await listLikes(env.DB, me.id, "suggestions");
    expect(suggestions.find((c) => c.id === team.id)).toMatchObject({ suggested: true, fictional: true });
    expect(received.find((c) => c.id === team.id)).toBeUndefined();
    expect(received.find((c) => c.id === person.id)).toMatchObject({ suggested: false, fictional: false });
    const api = await likesApi(env.DB, me.id);
    expect(api.liked_by.find((l) => l.id === team.id)).toMatchObject({ suggested: true, profile: { fictional: true } });
    const html = await (await get("/likes/suggestions", { cookie: await sessionCookie(me.id) })).text();
    expect(html).toContain("A profile you may like");
    expect(html.match(/data-testid="fictional-mark"/g)?.length).toBe(1);
    // The team profile's page does not say "likes you" either.
    const profile = await (await get(`/members/${team.id}`, { cookie: await sessionCookie(me.id) })).text();
    expect(profile).toContain("A profile you may like");
    expect(profile).not.toContain("likes you.");
  });
});

describe("buying credits from a chat", () => {
  const fromChat = (cookie: string, returnTo: string, body = "See you at eight?") =>
    post("/credits?index", { intent: "fromChat", returnTo, body, clientId: "client-abcdefgh" }, { cookie });

  it("remembers the chat and the typed text, and the chat puts the text back once", async () => {
    const { alice, conversationId } = await pair();
    const cookie = await sessionCookie(alice.id);
    const res = await fromChat(cookie, `/chats/${conversationId}`, "See you at eight? <b>");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/credits");
    const set = appSetCookie(res) ?? "";
    expect(set).toMatch(/^chat_return=[^;]+; Path=\/; Max-Age=3600; SameSite=Lax; Secure; HttpOnly$/);
    const back = set.split(";")[0]!;
    const credits = await (await get("/credits", { cookie: `${cookie}; ${back}` })).text();
    expect(credits).toContain('data-testid="from-chat"');
    expect(credits).toContain('data-testid="credit-worth"');
    const chat = await get(`/chats/${conversationId}`, { cookie: `${cookie}; ${back}` });
    expect(appSetCookie(chat)).toMatch(/^chat_return=; Path=\/; Max-Age=0/);
    const html = await chat.text();
    expect(html).toMatch(/<textarea[^>]*name="body"[^>]*>See you at eight\? &lt;b&gt;<\/textarea>/);
    // Another chat does not take this chat's text.
    const other = await pair();
    const elsewhere = await get(`/chats/${other.conversationId}`, {
      cookie: `${await sessionCookie(other.alice.id)}; ${back}`,
    });
    expect(appSetCookie(elsewhere)).toBeNull();
  });

  it("refuses return paths that leave the chat pages: no cookie, nothing remembered", async () => {
    const { alice } = await pair();
    const cookie = await sessionCookie(alice.id);
    for (const bad of [
      "//evil.example/chats/x",
      "https://evil.example/chats/x",
      "/chats/x/../../logout",
      "/\\evil.example",
      "/chats/",
      "/settings",
      "/chats/x?next=//evil",
      `/chats/${"a".repeat(65)}`,
    ]) {
      const res = await fromChat(cookie, bad);
      expect(res.status, bad).toBe(302);
      expect(res.headers.get("Location"), bad).toBe("/credits");
      expect(appSetCookie(res), bad).toBeNull();
    }
    // Logged out: the login page, nothing set.
    const out = await post("/credits?index", { intent: "fromChat", returnTo: "/chats/abc", body: "x" });
    expect(appSetCookie(out)).toBeNull();
  });

  it("a planted or malformed cookie is no cookie", async () => {
    const { alice, conversationId } = await pair();
    const cookie = await sessionCookie(alice.id);
    for (const planted of [
      `chat_return=${encodeURIComponent(JSON.stringify(["//evil.example", "x"]))}`,
      "chat_return=%E0%A4%A",
      "chat_return=not-json",
      `chat_return=${encodeURIComponent(JSON.stringify([`/chats/${conversationId}`, 5]))}`,
    ]) {
      const res = await get(`/chats/${conversationId}`, { cookie: `${cookie}; ${planted}` });
      expect(res.status, planted).toBe(200);
      expect(appSetCookie(res), planted).toBeNull();
    }
  });
});
