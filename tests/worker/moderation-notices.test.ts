/**
 * Notice and action (decision 167): reporting a profile, a photo or a message, by a member or a visitor;
 * one open case per target with several notices; the reporter's confirmation mail in their language.
 */
import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { createMember, get, post, sessionCookie } from "./fixtures";
import { pair } from "./chat-support";

async function caseOf(targetType: string, targetId: string) {
  return env.DB.prepare("SELECT * FROM moderation_cases WHERE target_type = ?1 AND target_id = ?2 AND status = 'open'")
    .bind(targetType, targetId)
    .first<{ id: string; severity: number; member_id: string }>();
}
const noticesOf = (caseId: string) =>
  env.DB.prepare(
    "SELECT reporter_id, reporter_email, category, explanation, good_faith, language FROM notices WHERE case_id = ?1 ORDER BY id",
  )
    .bind(caseId)
    .all()
    .then((r) => r.results);
const lastMailTo = (to: string) =>
  env.DB.prepare('SELECT subject, text FROM mail_outbox WHERE "to" = ?1 ORDER BY id DESC')
    .bind(to)
    .first<{ subject: string; text: string }>();

async function addMessage(conversationId: string, senderId: string, seq: number, body: string) {
  await env.DB.prepare(
    "INSERT INTO messages (conversation_id, sender_id, client_id, body, seq) VALUES (?1, ?2, ?3, ?4, ?5)",
  )
    .bind(conversationId, senderId, `c-${crypto.randomUUID()}`, body, seq)
    .run();
}

describe("reporting", () => {
  it("a member's report of a profile opens a case; a second member's joins it, a repeat counts once; the most severe category ranks it", async () => {
    const target = await createMember();
    const a = await createMember({ language: "de" });
    const b = await createMember();
    const page = await get(`/report?member=${target.id}`, { cookie: await sessionCookie(a.id) });
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('name="email"');
    const counted = vi.spyOn(env.METRICS!, "writeDataPoint");
    const res = await post(
      `/report?member=${target.id}`,
      { category: "spam", explanation: "Sells things" },
      { cookie: await sessionCookie(a.id) },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/report?sent=1");
    await post(
      `/report?member=${target.id}`,
      { category: "spam", explanation: "again" },
      { cookie: await sessionCookie(a.id) },
    );
    await post(
      `/report?member=${target.id}`,
      { category: "minor", explanation: "Looks 15" },
      { cookie: await sessionCookie(b.id) },
    );
    // Two reports counted in Analytics Engine (decision 170): the repeat is not a new notice.
    expect(counted.mock.calls.filter(([point]) => point?.indexes?.[0] === "report")).toHaveLength(2);
    counted.mockRestore();
    const c = await caseOf("member", target.id);
    expect(c).toMatchObject({ member_id: target.id, severity: 0 });
    const notices = await noticesOf(c!.id);
    expect(notices.map((n) => [n.reporter_id, n.category])).toEqual([
      [a.id, "spam"],
      [b.id, "minor"],
    ]);
    // The confirmation in the reporter's language.
    expect((await lastMailTo(a.email))?.subject).toBe("Wir haben deine Meldung erhalten");
    expect((await lastMailTo(b.email))?.subject).toBe("We received your report");
  });

  it("illegal content needs an explanation and the good-faith confirmation", async () => {
    const target = await createMember();
    const a = await createMember();
    const cookie = await sessionCookie(a.id);
    const short = await post(
      `/report?member=${target.id}`,
      { category: "illegal", explanation: "bad", goodFaith: "on" },
      { cookie },
    );
    expect(await short.text()).toContain("explain why it is illegal");
    const noFaith = await post(
      `/report?member=${target.id}`,
      { category: "illegal", explanation: "Offers drugs for sale in his profile text" },
      { cookie },
    );
    expect(await noFaith.text()).toContain("confirm that you report in good faith");
    expect(await caseOf("member", target.id)).toBeNull();
    const ok = await post(
      `/report?member=${target.id}`,
      { category: "illegal", explanation: "Offers drugs for sale in his profile text", goodFaith: "on" },
      { cookie },
    );
    expect(ok.status).toBe(302);
    const [n] = await noticesOf((await caseOf("member", target.id))!.id);
    expect(n).toMatchObject({ category: "illegal", good_faith: 1 });
  });

  it("a visitor reports a profile with an e-mail address for the answer, and nothing else", async () => {
    const target = await createMember();
    const form = await get(`/report?member=${target.id}`);
    expect(await form.text()).toContain('name="email"');
    const noMail = await post(`/report?member=${target.id}`, { category: "fake" });
    expect(await noMail.text()).toContain("Enter your e-mail address");
    const ok = await post(`/report?member=${target.id}`, { category: "fake", email: "Visitor@Example.com" });
    expect(ok.status).toBe(302);
    const [n] = await noticesOf((await caseOf("member", target.id))!.id);
    expect(n).toMatchObject({ reporter_id: null, reporter_email: "visitor@example.com", category: "fake" });
    expect((await lastMailTo("visitor@example.com"))?.text).toMatch(/^Hello,/);
    const { alice, conversationId } = await pair();
    await addMessage(conversationId, alice.id, 1, "hi");
    expect((await get(`/report?message=${conversationId}:1`)).status).toBe(404);
    expect(
      (await post(`/report?message=${conversationId}:1`, { category: "spam", email: "v@example.com" })).status,
    ).toBe(404);
  });

  it("a message: only the other participant, only their message; the case names the sender", async () => {
    const { alice, bob, conversationId } = await pair();
    await addMessage(conversationId, alice.id, 1, "Send me 50 euros by gift card");
    await addMessage(conversationId, bob.id, 2, "No");
    const bobCookie = await sessionCookie(bob.id);
    const outsider = await createMember();
    expect(
      (await get(`/report?message=${conversationId}:1`, { cookie: await sessionCookie(outsider.id) })).status,
    ).toBe(404);
    expect((await get(`/report?message=${conversationId}:2`, { cookie: bobCookie })).status).toBe(404);
    expect((await get(`/report?message=${conversationId}:99`, { cookie: bobCookie })).status).toBe(404);
    const ok = await post(
      `/report?message=${conversationId}:1`,
      { category: "scam", explanation: "asks for money" },
      { cookie: bobCookie },
    );
    expect(ok.status).toBe(302);
    expect(await caseOf("message", `${conversationId}:1`)).toMatchObject({ member_id: alice.id, severity: 3 });
  });

  it("refuses one's own profile, an unknown target, a bad category", async () => {
    const a = await createMember();
    const cookie = await sessionCookie(a.id);
    expect((await get(`/report?member=${a.id}`, { cookie })).status).toBe(404);
    expect((await get("/report?member=nobody-here", { cookie })).status).toBe(404);
    expect((await get("/report", { cookie })).status).toBe(404);
    const other = await createMember();
    const bad = await post(`/report?member=${other.id}`, { category: "nonsense" }, { cookie });
    expect(await bad.text()).toContain("Choose a reason.");
    expect(await caseOf("member", other.id)).toBeNull();
  });
});
