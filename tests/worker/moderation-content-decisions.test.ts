/**
 * Decisions per content item (decision 205): a message removed from both members' views through its
 * conversation's object, a display name reset, one photo of a profile removed; each with its
 * statement of reasons saying which content, its audit row, and an appeal that restores it.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sendMessage } from "../../app/models/chat.server";
import { PRICES, cid, connect, is, pair, roomCount } from "./chat-support";
import { auditRows, createOperator, operatorCookie } from "./admin-support";
import { createMember, get, photoRow, post, sessionCookie } from "./fixtures";
import { decideAs, mailsTo, moderator, reportedCase } from "./moderation-support";

const say = (conversationId: string, senderId: string, body: string) =>
  sendMessage(env, { conversationId, senderId, prices: PRICES, clientId: cid(), kind: "text", body });

/** The member appeals the decision from the mailed statement; a second moderator decides it in the console. */
async function appealReversed(memberEmail: string, caseId: string) {
  const link = /\/statement\/[^\s)"]+/.exec((await mailsTo(memberEmail)).at(-1)!.text)![0];
  expect((await post(link, { explanation: "This was taken out of context, please look again." })).status).toBe(302);
  const appealId = (await env.DB.prepare(
    "SELECT a.id FROM appeals a JOIN decisions d ON d.id = a.decision_id WHERE d.case_id = ?1",
  )
    .bind(caseId)
    .first<string>("id"))!;
  const second = await operatorCookie((await createOperator("moderator")).id);
  const page = await (await get(`/admin/appeals/${appealId}`, { cookie: second })).text();
  const res = await post(
    `/admin/appeals/${appealId}`,
    { outcome: "reversed", reasons: "Read in context it was a joke between the two." },
    { cookie: second },
  );
  expect(res.status).toBe(302);
  return page;
}

describe("content decisions", () => {
  it("a reported message is removed from both members' views with a statement saying which; an appeal restores it", async () => {
    const { alice, bob, conversationId } = await pair({ language: "de" });
    for (const body of ["Hallo Bob", "Pay me 50 euro or I tell everyone, idiot", "Bis morgen"])
      expect(await say(conversationId, alice.id, body)).toMatchObject({ ok: true });
    const bobCookie = await sessionCookie(bob.id);
    const aliceCookie = await sessionCookie(alice.id);
    expect(await (await get(`/chats/${conversationId}`, { cookie: bobCookie })).text()).toContain("Pay me 50 euro");
    const socket = await connect(conversationId, bobCookie);
    expect(socket.status).toBe(101);
    // Only the other member of the conversation reports its messages.
    const reported = await post(
      `/report?message=${conversationId}:2`,
      { category: "harassment", explanation: "She threatens me" },
      { cookie: bobCookie },
    );
    expect(reported.status).toBe(302);
    const caseId = (await env.DB.prepare("SELECT id FROM moderation_cases WHERE target_id = ?1")
      .bind(`${conversationId}:2`)
      .first<string>("id"))!;
    const mod = await createOperator("moderator");
    // The message decisions fit a message case only.
    const cookie = await operatorCookie(mod.id);
    expect(await (await get(`/admin/reports/${caseId}`, { cookie })).text()).toContain('value="remove_message"');
    const res = await decideAs(cookie, caseId, {
      action: "remove_message",
      rule: "conduct",
      facts: "A threat and an insult in a message on 20 November.",
    });
    expect(res.status).toBe(302);
    // Gone from the room, for both; the other messages stay; an open chat is told at once.
    expect(await roomCount(conversationId, "seq = 2")).toBe(0);
    expect(await roomCount(conversationId)).toBe(2);
    expect(await socket.next!(is("removed"))).toEqual({ type: "removed", id: 2 });
    for (const c of [bobCookie, aliceCookie]) {
      const page = await (await get(`/chats/${conversationId}`, { cookie: c })).text();
      expect(page).not.toContain("Pay me 50 euro");
      expect(page).toContain("Bis morgen");
    }
    // The statement (German) says which message; the audit row keeps what was removed.
    const statement = (await mailsTo(alice.email)).at(-1)!;
    expect(statement.text).toContain("Wir haben deine Nachricht vom");
    expect(statement.text).toContain("„Pay me 50 euro or I tell everyone, idiot“");
    const [audit] = (await auditRows(alice.id)).filter((r) => r.action === "decision.remove_message");
    expect(audit).toMatchObject({
      operatorId: mod.id,
      before: { message: { conversationId, seq: 2, body: "Pay me 50 euro or I tell everyone, idiot" } },
    });
    // The appeal's moderator sees the removed message; reversing puts it back for both.
    const appealPage = await appealReversed(alice.email, caseId);
    expect(appealPage).toContain("Pay me 50 euro or I tell everyone, idiot");
    expect(await roomCount(conversationId, "seq = 2 AND sender_id = ?", alice.id)).toBe(1);
    expect(await (await get(`/chats/${conversationId}`, { cookie: bobCookie })).text()).toContain("Pay me 50 euro");
  });

  it("a display name is reset (the statement names both) and an appeal gives it back; nothing else changes", async () => {
    const member = await createMember({ language: "de", name: "Fick Dich" });
    await env.DB.prepare("UPDATE profiles SET about_me = 'Ich mag Wandern' WHERE user_id = ?1").bind(member.id).run();
    const { caseId } = await reportedCase(member, "harassment");
    const res = await decideAs(await moderator(), caseId, {
      action: "reset_name",
      rule: "conduct",
      facts: "The display name is an insult.",
    });
    expect(res.status).toBe(302);
    const profile = () =>
      env.DB.prepare("SELECT name, about_me, status FROM profiles WHERE user_id = ?1")
        .bind(member.id)
        .first<{ name: string; about_me: string; status: string }>();
    const reset = (await profile())!;
    expect(reset.name).toMatch(/^Mitglied \d{4}$/);
    expect(reset).toMatchObject({ about_me: "Ich mag Wandern", status: "active" });
    expect((await mailsTo(member.email)).at(-1)!.text).toContain(
      `Wir haben deinen Anzeigenamen „Fick Dich“ auf „${reset.name}“ zurückgesetzt.`,
    );
    await appealReversed(member.email, caseId);
    expect((await profile())!.name).toBe("Fick Dich");
  });

  it("one photo of a reported profile is removed and held for the appeal; another member's photo is refused", async () => {
    const member = await createMember({ language: "de" });
    const [keep, remove] = [`ph-${crypto.randomUUID()}`, `ph-${crypto.randomUUID()}`];
    await photoRow(member.id, keep).run();
    await photoRow(member.id, remove).run();
    const other = await createMember();
    const foreign = `ph-${crypto.randomUUID()}`;
    await photoRow(other.id, foreign).run();
    const { caseId } = await reportedCase(member, "fake");
    const cookie = await moderator();
    const form = { action: "remove_photo", rule: "identity", facts: "The second photo is a celebrity's picture." };
    const refused = await decideAs(cookie, caseId, { ...form, photoId: foreign });
    expect(await refused.text()).toContain("no longer there");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM photos WHERE id = ?1").bind(foreign).first("n")).toBe(1);
    expect((await decideAs(cookie, caseId, { ...form, photoId: remove })).status).toBe(302);
    const left = await env.DB.prepare("SELECT id FROM photos WHERE user_id = ?1").bind(member.id).all<{ id: string }>();
    expect(left.results.map((r) => r.id)).toEqual([keep]);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM held_photos WHERE id = ?1").bind(remove).first("n")).toBe(1);
    expect((await mailsTo(member.email)).at(-1)!.text).toContain("Wir haben eines deiner Fotos entfernt.");
    await appealReversed(member.email, caseId);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM photos WHERE id = ?1").bind(remove).first("n")).toBe(1);
  });
});
