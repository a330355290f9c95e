/**
 * The attacker's view of revoked sessions (decision 083): after logout, a password change, a
 * reset or account deletion, the sockets opened with that session (chat and member hub) close at
 * once, and the chat object refuses a send whose session is no longer valid: not stored, not charged.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { HUB_PATH } from "../../app/chat/protocol";
import { cid, connect, is, openSocket, pair, roomCount, walletCredits } from "./chat-support";
import { sessionCookie } from "./fixtures";
import { PASSWORD, mailedToken, send } from "./accounts-support";
import { hashPassword } from "../../app/lib/password";

const REVOKED = 4401;

async function member2() {
  const p = await pair();
  await env.DB.prepare("UPDATE users SET password_hash = ?2 WHERE id = ?1")
    .bind(p.alice.id, await hashPassword(PASSWORD, env.PASSWORD_PEPPER))
    .run();
  const email = (await env.DB.prepare("SELECT email FROM users WHERE id = ?1")
    .bind(p.alice.id)
    .first<string>("email"))!;
  return { ...p, email };
}

async function socketsOf(conversationId: string, cookie: string) {
  const chat = await connect(conversationId, cookie);
  const hub = await openSocket<unknown>(HUB_PATH, cookie);
  expect(chat.status).toBe(101);
  expect(hub.status).toBe(101);
  return { chat, hub };
}

const messages = (conversationId: string) => roomCount(conversationId);
const credits = walletCredits;

describe("sockets of a revoked session close at once", () => {
  it("on logout (only that session's sockets)", async () => {
    const { alice, conversationId } = await member2();
    const mine = await sessionCookie(alice.id);
    const other = await sessionCookie(alice.id);
    const a = await socketsOf(conversationId, mine);
    const b = await socketsOf(conversationId, other);
    expect((await send("/api/logout.php", {}, { cookie: mine })).status).toBe(302);
    expect(await a.chat.closed).toBe(REVOKED);
    expect(await a.hub.closed).toBe(REVOKED);
    // The other device's session is still valid: its sockets live on and still send.
    b.chat.ws!.send(JSON.stringify({ type: "send", clientId: cid(), body: "still here" }));
    await b.chat.next!(is("ack"));
  });

  it("on a password change (every other session), keeping the current one", async () => {
    const { alice, conversationId } = await member2();
    const current = await sessionCookie(alice.id);
    const stolen = await sessionCookie(alice.id);
    const thief = await socketsOf(conversationId, stolen);
    const own = await socketsOf(conversationId, current);
    const res = await send(
      "/settings",
      { intent: "password", old_password: PASSWORD, password: "Brand-new-1", password_confirm: "Brand-new-1" },
      { cookie: current },
    );
    expect(res.status).toBe(200);
    expect(await thief.chat.closed).toBe(REVOKED);
    expect(await thief.hub.closed).toBe(REVOKED);
    own.chat.ws!.send(JSON.stringify({ type: "send", clientId: cid(), body: "mine" }));
    await own.chat.next!(is("ack"));
  });

  it("on a password reset", async () => {
    const { alice, conversationId, email } = await member2();
    const s = await socketsOf(conversationId, await sessionCookie(alice.id));
    await send("/reset-password", { email });
    const token = await mailedToken(email, "/reset-password/do");
    const NEW = "Reset-pass-77";
    expect(
      (await send(`/reset-password/do?token=${token}`, { token, password: NEW, password_confirm: NEW })).status,
    ).toBeLessThan(400);
    expect(await s.chat.closed).toBe(REVOKED);
    expect(await s.hub.closed).toBe(REVOKED);
  });

  it("on account deletion, and the other member's socket stays open", async () => {
    const { alice, bob, conversationId } = await member2();
    const cookie = await sessionCookie(alice.id);
    const s = await socketsOf(conversationId, cookie);
    const bobs = await connect(conversationId, await sessionCookie(bob.id));
    const res = await send(
      "/settings/delete?step=reasons",
      { intent: "delete", reason: "found_someone", remarks: "" },
      { cookie },
    );
    expect(res.status).toBe(302);
    expect(await s.chat.closed).toBe(REVOKED);
    expect(await s.hub.closed).toBe(REVOKED);
    expect(bobs.ws!.readyState).toBe(WebSocket.OPEN);
  });
});

describe("the chat object checks the session on every send", () => {
  it("a send over a socket whose session has ended is refused, not stored, not charged", async () => {
    const { alice, conversationId } = await member2();
    const cookie = await sessionCookie(alice.id);
    const s = await connect(conversationId, cookie);
    // The session ends without anyone telling the object (e.g. it expired).
    await env.DB.prepare("DELETE FROM sessions WHERE user_id = ?1").bind(alice.id).run();
    const before = await credits(alice.id);
    s.ws!.send(JSON.stringify({ type: "send", clientId: cid(), body: "sneaky" }));
    expect(await s.closed).toBe(REVOKED);
    expect(await messages(conversationId)).toBe(0);
    expect(await credits(alice.id)).toBe(before);
  });
});
