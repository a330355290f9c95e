/**
 * The team behind the team-run profiles (decision 201): a member's paid message to a team-run
 * profile reaches the console's inbox, one team member claims it, their reply (as the profile) goes
 * through the conversation's object to the member, free; the guard rails refuse contact details; the
 * roles keep moderators out of the inbox and the chat team out of payments and e-mail addresses.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { startConversation } from "../../app/models/chat.server";
import { exportMemberData } from "../../app/models/accounts/export.server";
import { createMember, get, post } from "./fixtures";
import { auditRows } from "./admin-support";
import {
  cid,
  connect,
  cookieOf,
  explainedBalance,
  is,
  ledgerCount,
  PRICES,
  roomCount,
  roomRows,
  roomStub,
} from "./chat-support";
import { asRole, replyForm, teamRow, waitingMember } from "./team-support";
import { returnUnansweredCredits } from "../../app/models/team.server";

describe("the inbox", () => {
  it("a member's paid message to a team-run profile waits in the inbox, with the language and the credits spent", async () => {
    const { member, conversationId } = await waitingMember();
    const row = await teamRow(conversationId);
    expect(row).toMatchObject({ credits: PRICES.message, language: "de", claimed_by: null });
    expect(row!.waiting_since).toBeGreaterThan(0);
    const team = await asRole("chat_team");
    const page = await (await get("/admin/inbox", { cookie: team.cookie })).text();
    expect(page).toContain(`/admin/inbox/${conversationId}`);
    const name = await env.DB.prepare("SELECT name FROM profiles WHERE user_id = ?1")
      .bind(member.id)
      .first<{ name: string }>();
    expect(page).toContain(name!.name);
    // Filtered by another language, it is not listed.
    const other = await (await get("/admin/inbox?language=fi", { cookie: team.cookie })).text();
    expect(other).not.toContain(`/admin/inbox/${conversationId}`);
  });

  it("a conversation between two real members never reaches the inbox", async () => {
    const a = await createMember({ credits: 20 });
    const b = await createMember();
    const started = await startConversation(env.DB, a.id, b.id);
    if (!started.ok) throw new Error(started.error);
    await roomStub(env, started.id).send({
      conversationId: started.id,
      senderId: a.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hi",
    });
    await roomStub(env, started.id).settled();
    expect(await teamRow(started.id)).toBeNull();
    const team = await asRole("chat_team");
    expect((await get(`/admin/inbox/${started.id}`, { cookie: team.cookie })).status).toBe(404);
  });

  it("two team members open the same conversation at once: exactly one holds it, the other cannot write", async () => {
    const { conversationId } = await waitingMember();
    const [x, y] = await Promise.all([asRole("chat_team"), asRole("chat_team")]);
    const pages = await Promise.all(
      [x, y].map((t) => get(`/admin/inbox/${conversationId}`, { cookie: t.cookie }).then((r) => r.text())),
    );
    const holds = pages.map((p) => p.includes("You hold this conversation"));
    expect(holds.filter(Boolean)).toHaveLength(1);
    const [winner, loser] = holds[0] ? [x, y] : [y, x];
    expect(pages[holds[0] ? 1 : 0]).toMatch(/Held by (<!-- -->)?Test chat_team/);
    expect((await teamRow(conversationId))!.claimed_by).toBe(winner.id);
    // The other one's reply is refused, nothing is sent.
    const refused = await post(`/admin/inbox/${conversationId}`, replyForm("Hi!"), { cookie: loser.cookie });
    expect(await refused.text()).toContain("You no longer hold this conversation");
    expect(await roomCount(conversationId)).toBe(1);
  });

  it("the reply, as the profile, reaches the member's open chat through the room, costs nothing and ends the claim; audited", async () => {
    const { profile, member, conversationId } = await waitingMember();
    const balance = await explainedBalance(member.id);
    const socket = await connect(conversationId, await cookieOf(member.id));
    const team = await asRole("chat_team");
    expect(await (await get(`/admin/inbox/${conversationId}`, { cookie: team.cookie })).text()).toContain(
      "You hold this conversation",
    );
    // Opened by the team: the member sees the read receipt, as from anyone.
    await socket.next!(is("read"));
    const res = await post(`/admin/inbox/${conversationId}`, replyForm("Busy week, but a good one. And yours?"), {
      cookie: team.cookie,
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/admin/inbox?sent=1");
    const frame = await socket.next!(
      (f): f is Extract<typeof f, { type: "message" }> => f.type === "message" && f.message.senderId === profile.id,
    );
    expect(frame.message.body).toBe("Busy week, but a good one. And yours?");
    await roomStub(env, conversationId).settled();
    expect(await explainedBalance(member.id)).toBe(balance);
    const row = await teamRow(conversationId);
    expect(row).toMatchObject({ waiting_since: null, claimed_by: null });
    expect(row!.first_reply_at).toBeGreaterThan(0);
    const unread = await env.DB.prepare(
      "SELECT unread FROM conversation_members WHERE conversation_id = ?1 AND user_id = ?2",
    )
      .bind(conversationId, member.id)
      .first<{ unread: number }>();
    expect(unread?.unread).toBe(0 + 1);
    const audit = (await auditRows(conversationId)).filter((r) => r.action === "team.reply");
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ operatorId: team.id, after: { profileId: profile.id, seq: 2 } });
    // No longer waiting: off the inbox.
    expect(await (await get("/admin/inbox", { cookie: team.cookie })).text()).not.toContain(
      `/admin/inbox/${conversationId}"`,
    );
    // The member's data export says the conversation was with a team-run profile.
    const data = await exportMemberData(env, member.id);
    expect(data.conversations.find((c) => (c as { id?: string }).id === conversationId)).toMatchObject({
      with_team_run_profile: true,
    });
    socket.ws!.close();
  });

  it("a reply with a phone number (or a meeting, a link, money) is refused with the reason; nothing is sent", async () => {
    const { conversationId } = await waitingMember();
    const team = await asRole("chat_team");
    await get(`/admin/inbox/${conversationId}`, { cookie: team.cookie });
    for (const [body, reason] of [
      ["Call me on +31 6 1234 5678 tonight", "contact details"],
      ["Let's meet at the station on Friday", "meeting in person"],
      ["Look at www.example.com for more", "a link"],
      ["Could you send money for my ticket?", "money or gifts"],
    ] as const) {
      const res = await post(`/admin/inbox/${conversationId}`, replyForm(body), { cookie: team.cookie });
      const html = await res.text();
      expect(html).toContain("Not sent.");
      expect(html).toContain(reason);
    }
    expect(await roomCount(conversationId)).toBe(1);
  });
});

describe("a member reports a team reply", () => {
  it("reaches the moderators like any report: a case on the message, naming the team-run profile", async () => {
    const { profile, member, conversationId } = await waitingMember();
    const team = await asRole("chat_team");
    await get(`/admin/inbox/${conversationId}`, { cookie: team.cookie });
    await post(`/admin/inbox/${conversationId}`, replyForm("I only chat here, sorry."), { cookie: team.cookie });
    const ok = await post(
      `/report?message=${conversationId}:2`,
      { category: "fake", explanation: "I think this is not a real person" },
      { cookie: await cookieOf(member.id) },
    );
    expect(ok.status).toBe(302);
    const row = await env.DB.prepare(
      "SELECT member_id, status FROM moderation_cases WHERE target_type = 'message' AND target_id = ?1",
    )
      .bind(`${conversationId}:2`)
      .first();
    expect(row).toEqual({ member_id: profile.id, status: "open" });
    const moderator = await asRole("moderator");
    const name = await env.DB.prepare("SELECT name FROM profiles WHERE user_id = ?1")
      .bind(profile.id)
      .first<{ name: string }>();
    expect(await (await get("/admin/reports", { cookie: moderator.cookie })).text()).toContain(name!.name);
  });
});

describe("nothing paid goes unanswered", () => {
  it("an unanswered paid message gets its credits back once after the brand's window (clock held), with a line in the chat", async () => {
    const { member, conversationId } = await waitingMember();
    const sentAt = (await teamRow(conversationId))!.waiting_since!;
    const before = await explainedBalance(member.id);
    // Within the window (24 h by default): nothing goes back.
    await returnUnansweredCredits(env, sentAt + 23 * 3600);
    expect(await explainedBalance(member.id)).toBe(before);
    // After it: once, however often the cron runs.
    for (let run = 0; run < 2; run++) await returnUnansweredCredits(env, sentAt + 25 * 3600);
    expect(await explainedBalance(member.id)).toBe(before + PRICES.message);
    expect(await ledgerCount(member.id, ["noreply"], PRICES.message)).toBe(1);
    const notices = await roomRows<{ body: string; sender_id: string }>(conversationId, "kind = 'notice'");
    expect(notices).toEqual([expect.objectContaining({ body: `${PRICES.message}|24`, sender_id: "" })]);
    // The member sees it among the messages; the inbox keeps the conversation (the team may still answer).
    const history = await roomStub(env, conversationId).history(conversationId, member.id, 90);
    expect(history!.messages.at(-1)).toMatchObject({ kind: "notice" });
    expect(await teamRow(conversationId)).toMatchObject({ credits_returned: PRICES.message, refund_from: null });
    expect((await teamRow(conversationId))!.waiting_since).toBe(sentAt);
  });

  it("an answered message is not given back", async () => {
    const { profile, conversationId } = await waitingMember();
    const sentAt = (await teamRow(conversationId))!.waiting_since!;
    await roomStub(env, conversationId).send({
      conversationId,
      senderId: profile.id,
      prices: { message: 0, gift: 0 },
      clientId: cid(),
      kind: "text",
      body: "Hi!",
    });
    await roomStub(env, conversationId).settled();
    expect(await returnUnansweredCredits(env, sentAt + 48 * 3600)).toMatchObject({ credits: 0 });
  });
});

describe("team-run profiles in the console", () => {
  const form = (o: Record<string, string> = {}) => ({
    intent: "save",
    brandId: "1",
    name: "Noor",
    gender: "female",
    dateOfBirth: "1994-03-02",
    country: "NL",
    city: "Zwolle",
    aboutMe: "Cyclist, coffee, old films.",
    languages: "nl",
    notes: "Works as a nurse, night shifts. No children. Loves the IJssel.",
    ...o,
  });

  it("the chat team creates a team-run profile (marked, at its town's coordinates, persona notes, audited); a promising text is warned about; it can be retired", async () => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO cities (id, name, country, region_code, lat, lon, population) VALUES (990001, 'Zwolle', 'NL', '', 52.5125, 6.0944, 130000)",
    ).run();
    const team = await asRole("chat_team");
    const res = await post("/admin/team-profiles", form(), { cookie: team.cookie });
    expect(res.status).toBe(302);
    const id = res.headers.get("Location")!.split("/").pop()!;
    const row = await env.DB.prepare(
      `SELECT p.fictional, p.status, p.lat, p.lon, p.city, u.brand_id, u.password_hash, tp.notes, tp.languages
         FROM profiles p JOIN users u ON u.id = p.user_id JOIN team_personas tp ON tp.user_id = p.user_id WHERE p.user_id = ?1`,
    )
      .bind(id)
      .first();
    expect(row).toMatchObject({
      fictional: 1,
      status: "active",
      lat: 52.5125,
      lon: 6.0944,
      city: "Zwolle",
      brand_id: 1,
    });
    expect(row).toMatchObject({ password_hash: "!", languages: "nl", notes: expect.stringContaining("night shifts") });
    expect((await auditRows(id)).map((r) => r.action)).toEqual(["team_profile.create"]);
    // An unknown town is refused, as for members.
    const unknown = await post("/admin/team-profiles", form({ city: "Atlantis" }), { cookie: team.cookie });
    expect(await unknown.text()).toContain("No town of that name");
    // Editing with a promise of a meeting saves, with the warning; the mark stays.
    const edited = await post(
      `/admin/team-profiles/${id}`,
      form({ aboutMe: "Looking for a real connection, let's meet!" }),
      {
        cookie: team.cookie,
      },
    );
    expect(await edited.text()).toContain("It proposes meeting in person.");
    const retired = await post(`/admin/team-profiles/${id}`, { intent: "retire" }, { cookie: team.cookie });
    expect(await retired.text()).toContain("Retired");
    expect(await env.DB.prepare("SELECT fictional, status FROM profiles WHERE user_id = ?1").bind(id).first()).toEqual({
      fictional: 1,
      status: "disabled",
    });
    // A moderator cannot open them.
    const moderator = await asRole("moderator");
    expect((await get("/admin/team-profiles", { cookie: moderator.cookie })).status).toBe(403);
  });
});

describe("who sees what", () => {
  it("a moderator (and support, finance) cannot open the inbox; the chat team cannot open payments, members or the dashboard", async () => {
    const { conversationId } = await waitingMember();
    for (const role of ["moderator", "support", "finance"] as const) {
      const op = await asRole(role);
      expect((await get("/admin/inbox", { cookie: op.cookie })).status).toBe(403);
      expect((await get(`/admin/inbox/${conversationId}`, { cookie: op.cookie })).status).toBe(403);
    }
    const team = await asRole("chat_team");
    for (const path of ["/admin/payments", "/admin/members", "/admin/codes", "/admin/audit", "/admin/reports"])
      expect((await get(path, { cookie: team.cookie })).status).toBe(403);
    const home = await get("/admin", { cookie: team.cookie });
    expect(home.status).toBe(302);
    expect(home.headers.get("Location")).toBe("/admin/inbox");
    // The conversation view shows no e-mail address.
    const page = await (await get(`/admin/inbox/${conversationId}`, { cookie: team.cookie })).text();
    expect(page).not.toMatch(/@example\.com/);
  });
});
