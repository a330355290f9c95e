/**
 * Decisions on cases (decision 167): each decision and its effects, the audit row in the
 * same batch, the statement of reasons in the member's language, the reporter told the outcome,
 * one decision per case however often it is posted.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { HUB_PATH } from "../../app/chat/protocol";
import { hashPassword } from "../../app/lib/password";
import { sendMessage } from "../../app/models/chat.server";
import { PRICES, cid, connect, openSocket, pair } from "./chat-support";
import { createMember, get, post, sessionCookie } from "./fixtures";
import { auditRows, createOperator, operatorCookie } from "./admin-support";
import { decideAs, mailsTo, moderator, reportedCase } from "./moderation-support";

const PASSWORD = "Member-pass-2026";

describe("decisions", () => {
  it("a ban ends every session, closes open sockets, hides the member, shows the statement at login in their language, tells the reporter", async () => {
    const { alice, bob, conversationId } = await pair({ language: "de" });
    await env.DB.prepare("UPDATE users SET password_hash = ?2 WHERE id = ?1")
      .bind(alice.id, await hashPassword(PASSWORD, env.PASSWORD_PEPPER))
      .run();
    const aliceCookie = await sessionCookie(alice.id);
    const chat = await connect(conversationId, aliceCookie);
    const hub = await openSocket<unknown>(HUB_PATH, aliceCookie);
    expect(chat.status).toBe(101);
    const { caseId, reporter } = await reportedCase(alice);
    const mod = await createOperator("moderator");
    const res = await decideAs(await operatorCookie(mod.id), caseId, {
      action: "ban",
      rule: "conduct",
      facts: "Sent threats to three members on 20 November.",
    });
    expect(res.status).toBe(302);
    expect(await chat.closed).toBe(4401);
    expect(await hub.closed).toBe(4401);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?1").bind(alice.id).first("n"),
    ).toBe(0);
    expect(await env.DB.prepare("SELECT status FROM profiles WHERE user_id = ?1").bind(alice.id).first("status")).toBe(
      "suspended",
    );
    expect((await get("/chats", { cookie: aliceCookie })).status).toBe(302);
    // Her conversation shows the other side that she is no longer available, and takes no message.
    const bobCookie = await sessionCookie(bob.id);
    expect(await (await get(`/chats/${conversationId}`, { cookie: bobCookie })).text()).toContain(
      "This member is no longer available.",
    );
    const sent = await sendMessage(env, {
      conversationId,
      senderId: bob.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "hello?",
    });
    expect(sent).toMatchObject({ ok: false, error: "blocked" });
    // Hidden: her profile is no longer shown to others.
    const seen = await get(`/members/${alice.id}`, { cookie: await sessionCookie(bob.id) });
    expect(await seen.text()).not.toContain("Rude");
    // The audit row, written with the decision.
    const [audit] = (await auditRows(alice.id)).filter((r) => r.action === "decision.ban");
    expect(audit).toMatchObject({
      operatorId: mod.id,
      role: "moderator",
      before: { profileStatus: "active", suspendedUntil: null },
    });
    // Her login shows the statement (German), nothing else.
    const email = (await env.DB.prepare("SELECT email FROM users WHERE id = ?1")
      .bind(alice.id)
      .first<string>("email"))!;
    const login = await post("/login", { email, password: PASSWORD });
    expect(login.status).toBe(302);
    // A ban lands on the ban page with the signed statement (decision 173).
    const statementUrl = login.headers.get("Location")!;
    expect(statementUrl).toMatch(/^\/pages\/ban\?statement=/);
    const token = new URL(statementUrl, "http://localhost").searchParams.get("statement")!;
    expect(login.headers.get("Set-Cookie") ?? "").not.toMatch(/sid=[^;]/);
    const page = await (await get(statementUrl)).text();
    expect(page).toContain("Wir haben dein Konto dauerhaft geschlossen.");
    expect(page).toContain("Sent threats to three members on 20 November.");
    expect(page).toContain("Respektvoller Umgang");
    // The statement mail (German) with its signed link; the reporter's outcome (French), without details.
    const [statement] = await mailsTo(email);
    expect(statement?.subject).toMatch(/^Eine Entscheidung über dein Konto/);
    expect(statement?.text).toContain(`/statement/${encodeURIComponent(token)}`);
    const outcome = (await mailsTo(reporter.email)).at(-1);
    expect(outcome?.subject).toBe("Le résultat de votre signalement");
    expect(outcome?.text).not.toContain("threats");
    // A tampered link shows nothing.
    expect((await get(`/statement/${encodeURIComponent(token.slice(0, -2))}xx`)).status).toBe(404);
    expect(await (await get(`${statementUrl.slice(0, -2)}xx`)).text()).not.toContain("Sent threats");
  });

  it("a suspension ends after N days: the login works again and the member is shown again", async () => {
    const target = await createMember();
    await env.DB.prepare("UPDATE users SET password_hash = ?2 WHERE id = ?1")
      .bind(target.id, await hashPassword(PASSWORD, env.PASSWORD_PEPPER))
      .run();
    const { caseId } = await reportedCase(target, "spam");
    await decideAs(await moderator(), caseId, {
      action: "suspend",
      days: "3",
      rule: "commercial",
      facts: "Advertised a paid service in 12 messages.",
    });
    const row = await env.DB.prepare(
      "SELECT suspended_until, (SELECT ends_at FROM decisions WHERE case_id = ?2) AS ends FROM users WHERE id = ?1",
    )
      .bind(target.id, caseId)
      .first<{ suspended_until: number; ends: number }>();
    expect(row!.suspended_until).toBe(row!.ends);
    expect(row!.ends - Math.floor(Date.now() / 1000)).toBeGreaterThan(3 * 86_400 - 60);
    expect((await post("/login", { email: target.email, password: PASSWORD })).headers.get("Location")).toMatch(
      /^\/statement\//,
    );
    // Three days later (the decision's end moved into the past instead of moving the clock).
    await env.DB.prepare("UPDATE decisions SET ends_at = 1 WHERE case_id = ?1").bind(caseId).run();
    await env.DB.prepare("UPDATE users SET suspended_until = 1 WHERE id = ?1").bind(target.id).run();
    const again = await post("/login", { email: target.email, password: PASSWORD });
    expect(again.headers.get("Set-Cookie") ?? "").toMatch(/sid=/);
    expect(await env.DB.prepare("SELECT status FROM profiles WHERE user_id = ?1").bind(target.id).first("status")).toBe(
      "active",
    );
  });

  it("removing a profile text keeps the old text in the decision and the audit row (for an appeal)", async () => {
    const target = await createMember();
    await env.DB.prepare("UPDATE profiles SET about_me = 'Call me on +31 6 12345678 for paid dates' WHERE user_id = ?1")
      .bind(target.id)
      .run();
    const { caseId } = await reportedCase(target, "spam");
    await decideAs(await moderator(), caseId, {
      action: "remove_profile_text",
      rule: "commercial",
      facts: "The profile text offers paid dates.",
    });
    expect(
      await env.DB.prepare("SELECT about_me FROM profiles WHERE user_id = ?1").bind(target.id).first("about_me"),
    ).toBe("");
    const removed = await env.DB.prepare("SELECT removed FROM decisions WHERE case_id = ?1")
      .bind(caseId)
      .first<string>("removed");
    expect(JSON.parse(removed!)).toEqual({ aboutMe: "Call me on +31 6 12345678 for paid dates" });
    expect(await env.DB.prepare("SELECT status FROM profiles WHERE user_id = ?1").bind(target.id).first("status")).toBe(
      "active",
    );
  });

  it("removing a photo deletes it (row and stored files); it fits only a photo case", async () => {
    const target = await createMember();
    const photoId = `ph-${crypto.randomUUID()}`;
    await env.DB.prepare("INSERT INTO photos (id, user_id, width, height, review) VALUES (?1, ?2, 10, 10, 'approved')")
      .bind(photoId, target.id)
      .run();
    await env.DB.prepare("UPDATE profiles SET main_photo_id = ?2 WHERE user_id = ?1").bind(target.id, photoId).run();
    await env.PHOTOS.put(`photos/${photoId}/full.webp`, "x");
    await env.PHOTOS.put(`photos/${photoId}/blur.webp`, "x");
    const { caseId } = await reportedCase(target, "ncii", `photo=${photoId}`);
    const cookie = await moderator();
    expect(
      await (
        await decideAs(cookie, caseId, {
          action: "remove_profile_text",
          rule: "consent",
          facts: "Wrong action on purpose.",
        })
      ).text(),
    ).toContain("does not fit");
    await decideAs(cookie, caseId, {
      action: "remove_photo",
      rule: "consent",
      facts: "Intimate image of another person shared without consent.",
    });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM photos WHERE id = ?1").bind(photoId).first("n")).toBe(0);
    // Non-consensual imagery is deleted at once, never held for an appeal (decision 174).
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM held_photos WHERE id = ?1").bind(photoId).first("n")).toBe(
      0,
    );
    expect(await env.PHOTOS.get(`photos/${photoId}/full.webp`)).toBeNull();
    expect(await env.PHOTOS.get(`photos/${photoId}/blur.webp`)).toBeNull();
    expect(
      await env.DB.prepare("SELECT main_photo_id FROM profiles WHERE user_id = ?1")
        .bind(target.id)
        .first("main_photo_id"),
    ).toBeNull();
  });

  it("no action closes the case and tells the reporter no rule was broken; a second decision changes nothing", async () => {
    const target = await createMember();
    const { caseId, reporter } = await reportedCase(target, "fake");
    const cookie = await moderator();
    expect(
      (await decideAs(cookie, caseId, { action: "no_action", rule: "", facts: "Photos match the verified selfie." }))
        .status,
    ).toBe(302);
    expect((await mailsTo(reporter.email)).at(-1)?.text).toContain("aucune infraction");
    const again = await decideAs(cookie, caseId, {
      action: "ban",
      rule: "identity",
      facts: "Second try on a decided case.",
    });
    expect(await again.text()).toContain("already decided");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM decisions WHERE case_id = ?1").bind(caseId).first("n")).toBe(
      1,
    );
    expect((await auditRows(target.id)).filter((r) => r.action.startsWith("decision."))).toHaveLength(1);
    expect(await env.DB.prepare("SELECT status FROM profiles WHERE user_id = ?1").bind(target.id).first("status")).toBe(
      "active",
    );
  });

  it("a restriction needs a rule and facts; support may not decide", async () => {
    const target = await createMember();
    const { caseId } = await reportedCase(target);
    const cookie = await moderator();
    expect(
      await (await decideAs(cookie, caseId, { action: "ban", rule: "", facts: "No rule given here." })).text(),
    ).toContain("needs the rule");
    expect(await (await decideAs(cookie, caseId, { action: "ban", rule: "conduct", facts: "short" })).text()).toContain(
      "facts",
    );
    const support = await operatorCookie((await createOperator("support")).id);
    expect(
      (await decideAs(support, caseId, { action: "ban", rule: "conduct", facts: "Support tries to ban." })).status,
    ).toBe(403);
    expect(await env.DB.prepare("SELECT status FROM moderation_cases WHERE id = ?1").bind(caseId).first("status")).toBe(
      "open",
    );
  });

  it("the queue lists the most severe and oldest first; opening a message excerpt is logged", async () => {
    const { alice, bob, conversationId } = await pair();
    for (let i = 1; i <= 25; i++) {
      await env.DB.prepare(
        "INSERT INTO messages (conversation_id, sender_id, client_id, body, seq) VALUES (?1, ?2, ?3, ?4, ?5)",
      )
        .bind(conversationId, i % 2 ? alice.id : bob.id, `c-${crypto.randomUUID()}`, `message number ${i}`, i)
        .run();
    }
    expect(
      (
        await post(
          `/report?message=${conversationId}:13`,
          { category: "minor", explanation: "says she is 15" },
          { cookie: await sessionCookie(bob.id) },
        )
      ).status,
    ).toBe(302);
    const modOp = await createOperator("moderator");
    const cookie = await operatorCookie(modOp.id);
    const queue = await (await get("/admin/reports", { cookie })).text();
    expect(queue.indexOf("Minor")).toBeGreaterThan(-1);
    expect(queue).toMatch(/oldest open for/);
    const caseId = (await env.DB.prepare("SELECT id FROM moderation_cases WHERE target_id = ?1")
      .bind(`${conversationId}:13`)
      .first<string>("id"))!;
    const page = await (await get(`/admin/reports/${caseId}`, { cookie })).text();
    expect(page).not.toContain("message number 13");
    // An open case shows the decision form (its status is read apart from the profile's).
    expect(page).toContain('name="action"');
    expect(page).toContain("profile <!-- -->active");
    const excerpt = await (await post(`/admin/reports/${caseId}`, { intent: "excerpt" }, { cookie })).text();
    expect(excerpt).toContain("message number 3<");
    expect(excerpt).toContain("message number 23");
    expect(excerpt).not.toContain("message number 2<");
    expect(excerpt).not.toContain("message number 24");
    const [logged] = (await auditRows(caseId)).filter((r) => r.action === "case.view_messages");
    expect(logged).toMatchObject({ operatorId: modOp.id, after: { conversation: conversationId, seq: 13 } });
  });
});
