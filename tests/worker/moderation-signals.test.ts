/**
 * Scam and spam signals (decision 176): each rule fires, records which rule it was,
 * opens (or adds to) a case marked as flagged by automated means, never restricts anyone, and stays
 * quiet for ordinary use. A decision on a flagged case is marked automated_detection.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { startConversation } from "../../app/models/chat.server";
import { isDisposableAddress } from "../../app/models/disposable.server";
import { SIGNALS, checkMessage, contactIn, paymentIn } from "../../app/models/signals.server";
import { signupForm, signUp } from "./accounts-support";
import { createOperator, operatorCookie } from "./admin-support";
import { PRICES, cid, roomStub } from "./chat-support";
import { createMember, get, post, sessionCookie } from "./fixtures";

const NOW = 1_790_000_000;
const HOUR = 3600;

/** A member whose account was created at `createdAt`. */
async function memberCreatedAt(createdAt: number) {
  const m = await createMember({ paidUser: true, credits: 100 });
  await env.DB.prepare("UPDATE users SET created_at = ?2 WHERE id = ?1").bind(m.id, createdAt).run();
  return m;
}

/** `sender` writes `body` as the first message to `n` new members at `at` (rows as a send stores them). */
async function openers(senderId: string, n: number, at: number, body: (i: number) => string) {
  for (let i = 0; i < n; i++) {
    const other = await createMember();
    const started = await startConversation(env.DB, senderId, other.id);
    if (!started.ok) throw new Error(started.error);
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO messages (conversation_id, sender_id, client_id, body, seq, created_at) VALUES (?1, ?2, ?3, ?4, 1, ?5)",
      ).bind(started.id, senderId, `c-${crypto.randomUUID()}`, body(i), at),
      env.DB.prepare(
        "UPDATE conversation_members SET last_activity_at = ?3 WHERE conversation_id = ?1 AND user_id = ?2",
      ).bind(started.id, senderId, at),
    ]);
  }
}
const lastSent = (senderId: string, body: string, at: number) =>
  ({ senderId, conversationId: "x", seq: 1, kind: "text", body, createdAt: at }) as const;

async function flagsOf(memberId: string) {
  const c = await env.DB.prepare(
    "SELECT id, flagged_by, severity FROM moderation_cases WHERE target_type = 'member' AND target_id = ?1 AND status = 'open'",
  )
    .bind(memberId)
    .first<{ id: string; flagged_by: string | null; severity: number }>();
  const rules = c
    ? (
        await env.DB.prepare("SELECT rule, detail FROM case_flags WHERE case_id = ?1 ORDER BY id")
          .bind(c.id)
          .all<{ rule: string; detail: string }>()
      ).results
    : [];
  return { case: c, rules };
}

/** Nothing restricted the member: no suspension, profile still shown, sessions alive, no decision. */
async function expectUnrestricted(memberId: string, sessions = 0) {
  const row = await env.DB.prepare(
    `SELECT u.suspended_until, p.status, (SELECT count(*) FROM sessions WHERE user_id = u.id) AS sessions,
            (SELECT count(*) FROM decisions WHERE member_id = u.id) AS decisions
     FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ?1`,
  )
    .bind(memberId)
    .first<{ suspended_until: number | null; status: string; sessions: number; decisions: number }>();
  expect(row).toMatchObject({ suspended_until: null, sessions, decisions: 0 });
  expect(row!.status).not.toBe("suspended");
}

describe("text rules", () => {
  it("finds contact details and payment requests in several languages, not in ordinary talk", () => {
    expect(contactIn("write me at anna.k@gmail.com")).toBe("email");
    expect(contactIn("mail anna (at) gmail.com")).toBe("email");
    expect(contactIn("call +31 6 12 34 56 78")).toBe("phone");
    expect(contactIn("mijn nummer 0612-345678")).toBe("phone");
    expect(contactIn("see www.example.org")).toBe("link");
    expect(contactIn("https://x.y/z")).toBe("link");
    expect(contactIn("schreib mir auf Telegram")).toBe("messenger");
    expect(paymentIn("send it via PayPal please")).toBe("paypal");
    expect(paymentIn("Kannst du mir einen Amazon Gutschein kaufen?")).toBe("gutschein");
    expect(paymentIn("Je peux avoir une carte cadeau ?")).toBe("carte cadeau");
    expect(paymentIn("Wyślij przelew")).toBe("przelew");
    expect(paymentIn("Betal med gavekort")).toBe("gavekort");
    expect(paymentIn("Bankoverføring tack")).toBeNull(); // one word in Danish: not on the list, no guess
    expect(paymentIn("IBAN NL91 ABNA 0417 1643 00")).toBe("iban");
    expect(paymentIn("my account NL91ABNA0417164300")).toBe("iban");
    expect(paymentIn("western union is fastest")).toBe("western union");
    for (const normal of [
      "Hi! I'm 34, 1.78 m, I live in Utrecht and love hiking.",
      "We could meet on 24.11.2026 at 20:00?",
      "Haha, that film was great. What do you do for work?",
      "Ich wohne in der Zellestraße und mag Kryptonit nicht.",
      "Transfers of football players are crazy",
    ])
      expect([normal, contactIn(normal), paymentIn(normal)]).toEqual([normal, null, null]);
  });

  it("knows disposable domains from the maintained list, subdomains too", async () => {
    expect(await isDisposableAddress("x@mailinator.com")).toBe(true);
    expect(await isDisposableAddress("x@eu.mailinator.com")).toBe(true);
    expect(await isDisposableAddress("x@YOPMAIL.com")).toBe(true);
    expect(await isDisposableAddress("x@gmail.com")).toBe(false);
    expect(await isDisposableAddress("x@example.com")).toBe(false);
  });
});

describe("signals", () => {
  it("a new account writing to many members within minutes is flagged (rule recorded, queued as spam), never restricted", async () => {
    const sender = await memberCreatedAt(NOW - 2 * HOUR);
    const cookie = await sessionCookie(sender.id);
    await openers(sender.id, SIGNALS.burstMembers, NOW - 5 * 60, (i) => `Hello number ${i}`);
    const flags = await checkMessage(env, lastSent(sender.id, "Hello number 4", NOW));
    expect(flags.map((f) => f.rule)).toEqual(["new_account_burst"]);
    const { case: c, rules } = await flagsOf(sender.id);
    expect(c).toMatchObject({ flagged_by: "new_account_burst", severity: 6 });
    expect(rules).toEqual([{ rule: "new_account_burst", detail: `${SIGNALS.burstMembers} members in 10 min` }]);
    await expectUnrestricted(sender.id, 1);
    // The member goes on as before.
    expect((await get("/chats", { cookie })).status).toBe(200);
  });

  it("the same burst from an established account, or fewer members, or spread over hours, is not flagged", async () => {
    const old = await memberCreatedAt(NOW - 30 * 24 * HOUR);
    await openers(old.id, SIGNALS.burstMembers + 2, NOW - 60, (i) => `Hey there ${i}`);
    expect(await checkMessage(env, lastSent(old.id, "Hey there 6", NOW))).toEqual([]);
    const fresh = await memberCreatedAt(NOW - HOUR);
    await openers(fresh.id, SIGNALS.burstMembers - 1, NOW - 60, (i) => `Hi ${i}`);
    await openers(fresh.id, 3, NOW - 40 * 60, (i) => `Earlier hi ${i}`);
    expect(await checkMessage(env, lastSent(fresh.id, "Hi 3", NOW))).toEqual([]);
    expect((await flagsOf(old.id)).case).toBeNull();
    expect((await flagsOf(fresh.id)).case).toBeNull();
  });

  it("the same text to many members is flagged whatever the account's age; short greetings are not", async () => {
    const text = "Hello dear, you look lovely, I am new here and lonely";
    const old = await memberCreatedAt(NOW - 90 * 24 * HOUR);
    await openers(old.id, SIGNALS.sameTextMembers, NOW - 5 * HOUR, () => text);
    expect((await checkMessage(env, lastSent(old.id, text, NOW))).map((f) => f.rule)).toEqual(["same_text"]);
    expect((await flagsOf(old.id)).rules).toEqual([{ rule: "same_text", detail: "5 members in 24 h" }]);
    await expectUnrestricted(old.id);
    const greeter = await memberCreatedAt(NOW - 90 * 24 * HOUR);
    await openers(greeter.id, SIGNALS.sameTextMembers + 3, NOW - 5 * HOUR, () => "Hi, how are you?");
    expect(await checkMessage(env, lastSent(greeter.id, "Hi, how are you?", NOW))).toEqual([]);
  });

  it("contact details or a payment request in a conversation's first messages, sent through the chat room, flag the sender after the answer", async () => {
    const alice = await createMember({ paidUser: true, credits: 100 });
    const bob = await createMember();
    const started = await startConversation(env.DB, alice.id, bob.id);
    if (!started.ok) throw new Error(started.error);
    const room = roomStub(env, started.id);
    const input = { conversationId: started.id, senderId: alice.id, prices: PRICES, kind: "text" as const };
    expect((await room.send({ ...input, clientId: cid(), body: "Hi Bob, nice profile!" })).ok).toBe(true);
    await room.settled();
    expect((await flagsOf(alice.id)).case).toBeNull();
    const sent = await room.send({
      ...input,
      clientId: cid(),
      body: "Add me on WhatsApp +44 7700 900123, and a gift card would help",
    });
    expect(sent.ok).toBe(true);
    await room.settled();
    const { case: c, rules } = await flagsOf(alice.id);
    expect(c?.flagged_by).toBe("contact_details");
    expect(c?.severity).toBe(3); // scam: the payment request raised it
    expect(rules).toEqual([
      { rule: "contact_details", detail: "phone" },
      { rule: "payment_request", detail: "gift card" },
    ]);
    // The message was delivered and the sender can go on: a flag restricts nothing.
    expect(sent.ok && sent.message.held).toBe(false);
    expect((await room.send({ ...input, clientId: cid(), body: "Still there?" })).ok).toBe(true);
    await room.settled();
    await expectUnrestricted(alice.id);
    // A later message in a long conversation is not looked at.
    expect(
      await checkMessage(env, { ...lastSent(alice.id, "paypal me", NOW), seq: SIGNALS.firstMessages + 1 }),
    ).toEqual([]);
  });

  it("a sign-up with a disposable address opens a flagged case and still signs up; an ordinary address does not", async () => {
    const bad = signupForm({ email: `x${Date.now()}@mailinator.com` });
    expect((await signUp(bad)).status).toBe(302);
    const good = signupForm();
    expect((await signUp(good)).status).toBe(302);
    const idOf = (email: string) =>
      env.DB.prepare("SELECT id FROM users WHERE email = ?1").bind(email).first<string>("id");
    const badId = (await idOf(bad.email))!;
    const { case: c, rules } = await flagsOf(badId);
    expect(c?.flagged_by).toBe("disposable_email");
    expect(rules).toEqual([{ rule: "disposable_email", detail: "mailinator.com" }]);
    expect((await flagsOf((await idOf(good.email))!)).case).toBeNull();
    await expectUnrestricted(badId, 1); // logged in by the sign-up, and stays so
  });

  it("reports by several different members flag the member once; one member reporting repeatedly does not", async () => {
    const target = await createMember();
    const report = async (reporterId: string) =>
      post(
        `/report?member=${target.id}`,
        { category: "fake", explanation: "Not a real person" },
        { cookie: await sessionCookie(reporterId) },
      );
    const first = await createMember();
    await report(first.id);
    await report(first.id);
    const second = await createMember();
    await report(second.id);
    expect((await flagsOf(target.id)).rules).toEqual([]);
    const third = await createMember();
    await report(third.id);
    const { case: c, rules } = await flagsOf(target.id);
    expect(c).toMatchObject({ flagged_by: "repeated_reports", severity: 5 });
    expect(rules).toEqual([{ rule: "repeated_reports", detail: "3+ members in 30 days" }]);
    await report((await createMember()).id);
    expect((await flagsOf(target.id)).rules).toHaveLength(1);
    await expectUnrestricted(target.id);
  });

  it("the case page shows the rule and that automated means flagged it; a decision on it is marked automated_detection and its statement says so", async () => {
    const sender = await memberCreatedAt(NOW - HOUR);
    await checkMessage(env, lastSent(sender.id, "pay me with paypal", NOW));
    const { case: c } = await flagsOf(sender.id);
    const cookie = await operatorCookie((await createOperator("moderator")).id);
    const page = await (await get(`/admin/reports/${c!.id}`, { cookie })).text();
    expect(page).toContain("Flagged by automated means");
    expect(page).toContain("Payment request in the first messages");
    const queue = await (await get("/admin/reports", { cookie })).text();
    expect(queue).toContain("Payment request in the first messages");
    const res = await post(
      `/admin/reports/${c!.id}`,
      {
        intent: "decide",
        action: "suspend",
        days: "3",
        rule: "fraud",
        facts: "Asked a member for money in the first message.",
        publicFacts: "Asked another member for money in a first message.",
      },
      { cookie },
    );
    expect(res.status).toBe(302);
    const d = await env.DB.prepare("SELECT automated_detection FROM decisions WHERE case_id = ?1")
      .bind(c!.id)
      .first<number>("automated_detection");
    expect(d).toBe(1);
    const mail = await env.DB.prepare('SELECT text FROM mail_outbox WHERE "to" = ?1 ORDER BY id DESC')
      .bind(sender.email)
      .first<string>("text");
    expect(mail).toContain("Automated means detected this");
  });
});
