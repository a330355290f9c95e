/**
 * "Restrict messaging for N days" (decision 173): the member keeps logging in and reading,
 * but every send path (the no-JS form, the first message to someone, the socket, a gift) is refused
 * with the translated reason and charges nothing, until the restriction ends by itself.
 */
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GIFTS } from "../../app/chat/gifts";
import { runScheduled } from "../../app/lib/scheduled.server";
import { sendMessage } from "../../app/models/chat.server";
import { PRICES, cid, connect, count, is, ledgerCount, pair, roomCount, walletCredits } from "./chat-support";
import { createMember, get, post, sessionCookie } from "./fixtures";
import { decideAs, mailsTo, moderator, reportedCase } from "./moderation-support";

const DAY = 86_400;
const credits = walletCredits;
const messages = (conversationId: string) => roomCount(conversationId);

async function restricted(days = "2", language = "de") {
  const { alice, bob, conversationId } = await pair({ language });
  const { caseId } = await reportedCase(alice, "harassment");
  const res = await decideAs(await moderator(), caseId, {
    action: "restrict_messaging",
    days,
    rule: "conduct",
    facts: "Sent insults to two members after they declined.",
  });
  expect(res.status).toBe(302);
  return { alice, bob, conversationId, caseId, cookie: await sessionCookie(alice.id) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("restrict messaging", () => {
  it("sets the end, keeps the member logged in and shown, mails the statement; days are required", async () => {
    const target = await createMember();
    const { caseId } = await reportedCase(target);
    const cookie = await moderator();
    const noDays = await decideAs(cookie, caseId, {
      action: "restrict_messaging",
      rule: "conduct",
      facts: "Insulted members repeatedly.",
    });
    expect(await noDays.text()).toContain("needs its length in days");
    const { alice, caseId: decided } = await restricted("2");
    const row = await env.DB.prepare(
      `SELECT u.messaging_restricted_until AS until, d.ends_at AS ends, d.days, p.status,
              (SELECT COUNT(*) FROM sessions WHERE user_id = u.id) AS sessions
       FROM users u JOIN profiles p ON p.user_id = u.id JOIN decisions d ON d.case_id = ?2 WHERE u.id = ?1`,
    )
      .bind(alice.id, decided)
      .first<{ until: number; ends: number; days: number; status: string; sessions: number }>();
    expect(row).toMatchObject({ days: 2, status: "active", sessions: 1 });
    expect(row!.until).toBe(row!.ends);
    expect(row!.ends - Math.floor(Date.now() / 1000)).toBeGreaterThan(2 * DAY - 60);
    expect(
      JSON.parse(
        (await env.DB.prepare("SELECT removed FROM decisions WHERE case_id = ?1")
          .bind(decided)
          .first<string>("removed"))!,
      ),
    ).toEqual({ messagingRestrictedUntil: null });
    expect((await get("/members", { cookie: await sessionCookie(alice.id) })).status).toBe(200);
    const [mail] = await mailsTo(alice.email);
    expect(mail?.text).toContain("Wir haben deine Nachrichten bis zum");
  });

  it("refuses every send path with the reason and charges nothing, then ends by itself", async () => {
    const { alice, bob, conversationId, cookie } = await restricted("2");
    const before = await credits(alice.id);
    // The chat page (in the page's language, English here): readable, the send box replaced by the reason and its end.
    const page = await (await get(`/chats/${conversationId}`, { cookie })).text();
    expect(page).toContain("A moderator has restricted your messaging until");
    expect(page).toContain('href="/settings/statements"');
    expect(page).not.toContain('name="body"');
    // The no-JavaScript form post.
    const form = await post(`/chats/${conversationId}`, { clientId: cid(), body: "hello again" }, { cookie });
    expect(form.status).toBe(400);
    // The answer re-renders the chat: the reason and its end instead of the send box.
    expect(await form.text()).toContain("A moderator has restricted your messaging until");
    // A gift by form.
    const gift = await post(`/chats/${conversationId}`, { clientId: cid(), giftId: GIFTS[0]!.id }, { cookie });
    expect(gift.status).toBe(400);
    // The first message to someone new starts no conversation (a free member's start is not spent).
    const carol = await createMember();
    const first = await post(`/members/${carol.id}/chat`, { clientId: cid(), body: "hi Carol" }, { cookie });
    expect(first.status).toBe(403);
    expect(await count("SELECT COUNT(*) AS n FROM conversations WHERE started_by = ?1", alice.id)).toBe(1);
    expect(await (await get(`/members/${carol.id}/chat`, { cookie })).text()).toContain(
      "A moderator has restricted your messaging until",
    );
    // The socket.
    const socket = await connect(conversationId, cookie);
    expect(socket.status).toBe(101);
    socket.ws!.send(JSON.stringify({ type: "send", clientId: cid(), body: "over the socket" }));
    expect(await socket.next!(is("error"))).toMatchObject({ error: "restricted" });
    socket.ws!.close();
    // The model itself (a free message too: the guard is not the price).
    const free = await sendMessage(env, {
      conversationId,
      senderId: alice.id,
      prices: { message: 0, gift: 0 },
      clientId: cid(),
      kind: "text",
      body: "free one",
    });
    expect(free).toMatchObject({ ok: false, error: "restricted" });
    expect(await messages(conversationId)).toBe(0);
    expect(await credits(alice.id)).toBe(before);
    expect(await ledgerCount(alice.id, ["message", "gift"])).toBe(0);
    // The other side may still write to her.
    expect(
      await sendMessage(env, {
        conversationId,
        senderId: bob.id,
        prices: PRICES,
        clientId: cid(),
        kind: "text",
        body: "are you there?",
      }),
    ).toMatchObject({ ok: true });
    // Two days and a minute later (a stopped clock moved forward, read by the Worker too): she writes again.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 2 * DAY * 1000 + 60_000 });
    const later = await sessionCookie(alice.id);
    expect(await (await get(`/chats/${conversationId}`, { cookie: later })).text()).not.toContain("A moderator has");
    const again = await post(`/chats/${conversationId}`, { clientId: cid(), body: "sorry" }, { cookie: later });
    expect(again.status).toBe(302);
    expect(await messages(conversationId)).toBe(2);
    expect(await credits(alice.id)).toBe(before - PRICES.message);
  });
});

describe("ended restrictions are lifted by the cron, without a login", () => {
  const state = (id: string) =>
    env.DB.prepare(
      "SELECT p.status, u.suspended_until, u.messaging_restricted_until AS restricted FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ?1",
    )
      .bind(id)
      .first<{ status: string; suspended_until: number | null; restricted: number | null }>();
  const decided = async (target: { id: string }, form: Record<string, string>) => {
    const { caseId } = await reportedCase(target, "spam");
    const res = await decideAs(await moderator(), caseId, {
      rule: "commercial",
      facts: "Advertised a paid service.",
      ...form,
    });
    expect(res.status).toBe(302);
  };

  it("shows a member again once the suspension has passed, clears an ended restriction, keeps bans and running ones; twice changes nothing", async () => {
    // A stopped clock the Worker reads too: the decisions are taken at t0, the cron runs at chosen times.
    const t0 = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: t0 });
    const suspended = await createMember();
    const banned = await createMember();
    const longer = await createMember();
    const restrictedOne = await createMember();
    const unconfirmed = await createMember({ status: "not_confirmed", profileStatus: "disabled" });
    const hiddenOtherwise = await createMember({ profileStatus: "disabled" });
    await decided(suspended, { action: "suspend", days: "3" });
    await decided(banned, { action: "ban" });
    await decided(longer, { action: "suspend", days: "10" });
    await decided(restrictedOne, { action: "restrict_messaging", days: "1" });
    await decided(unconfirmed, { action: "suspend", days: "1" });
    // A profile not hidden by moderation is never touched by the lift, whatever its suspended_until says.
    await env.DB.prepare("UPDATE users SET suspended_until = 1 WHERE id = ?1").bind(hiddenOtherwise.id).run();

    await runScheduled(null, env as never);
    expect((await state(suspended.id))?.status).toBe("suspended");
    expect((await state(restrictedOne.id))?.restricted).not.toBeNull();

    vi.setSystemTime(t0 + 3 * DAY * 1000 + 60_000);
    await runScheduled(null, env as never);
    const after = async () => ({
      suspended: (await state(suspended.id))?.status,
      banned: (await state(banned.id))?.status,
      longer: (await state(longer.id))?.status,
      restricted: (await state(restrictedOne.id))?.restricted,
      unconfirmed: (await state(unconfirmed.id))?.status,
      hiddenOtherwise: (await state(hiddenOtherwise.id))?.status,
    });
    const lifted = await after();
    expect(lifted).toEqual({
      suspended: "active",
      banned: "suspended",
      longer: "suspended",
      restricted: null,
      unconfirmed: "disabled",
      hiddenOtherwise: "disabled",
    });
    // Shown again in search without having logged in.
    const viewer = await createMember();
    expect((await get(`/members/${suspended.id}`, { cookie: await sessionCookie(viewer.id) })).status).toBe(200);
    // A second run (or the next hour) changes nothing.
    const { liftEndedRestrictions } = await import("../../app/models/moderation.server");
    expect(await liftEndedRestrictions(env.DB, Math.floor(Date.now() / 1000))).toEqual({ shown: 0, cleared: 0 });
    expect(await after()).toEqual(lifted);
  });
});
