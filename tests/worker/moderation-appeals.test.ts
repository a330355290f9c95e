/**
 * Removed photos held for the appeal window, and appeals (decision 174): the window,
 * one appeal per decision, another operator only, each reversal restoring what was removed with its
 * audit row in the same batch, the outcome told to the member in their language.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runScheduled } from "../../app/lib/scheduled.server";
import { hashPassword } from "../../app/lib/password";
import { decideAppeal } from "../../app/models/appeals.server";
import { appealDeadline, purgeHeldPhotos } from "../../app/models/held-photos.server";
import { auditRows, createOperator, operatorCookie } from "./admin-support";
import { createMember, get, post, sessionCookie } from "./fixtures";
import { decideAs, mailsTo, moderator, reportedCase } from "./moderation-support";
import { PRICES, cid, pair, roomStub } from "./chat-support";

const VARIANTS = ["full", "thumb", "blur"] as const;

async function memberWithPhoto() {
  const target = await createMember({ language: "nl" });
  const photoId = `ph-${crypto.randomUUID()}`;
  await env.DB.prepare("INSERT INTO photos (id, user_id, width, height) VALUES (?1, ?2, 10, 10)")
    .bind(photoId, target.id)
    .run();
  await env.DB.prepare("UPDATE profiles SET main_photo_id = ?2 WHERE user_id = ?1").bind(target.id, photoId).run();
  for (const v of VARIANTS) await env.PHOTOS.put(`photos/${photoId}/${v}.webp`, "x");
  return { target, photoId };
}
const count = (sql: string, ...args: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...args)
    .first<number>("n");

describe("removed photos are held for the appeal window", () => {
  it("a held photo is served to nobody by any URL or variant, not listed, its files kept; the cron purges it after six months", async () => {
    const { target, photoId } = await memberWithPhoto();
    const owner = await sessionCookie(target.id);
    const other = await sessionCookie((await createMember()).id);
    expect((await get(`/photos/${photoId}/full`, { cookie: owner })).status).toBe(200);
    const { caseId } = await reportedCase(target, "spam", `photo=${photoId}`);
    await decideAs(await moderator(), caseId, {
      action: "remove_photo",
      rule: "commercial",
      facts: "The photo shows a phone number for paid dates.",
    });
    for (const v of VARIANTS) {
      for (const cookie of [owner, other, undefined]) {
        expect((await get(`/photos/${photoId}/${v}`, cookie ? { cookie } : {})).status).toBe(404);
      }
    }
    expect(await (await get("/profile/photos", { cookie: owner })).text()).not.toContain(photoId);
    expect(await count("SELECT COUNT(*) AS n FROM photos WHERE id = ?1", photoId)).toBe(0);
    const held = await env.DB.prepare("SELECT was_main, held_until, decision_id FROM held_photos WHERE id = ?1")
      .bind(photoId)
      .first<{ was_main: number; held_until: number; decision_id: string }>();
    expect(held!.was_main).toBe(1);
    const decidedAt = (await env.DB.prepare("SELECT created_at FROM decisions WHERE id = ?1")
      .bind(held!.decision_id)
      .first<number>("created_at"))!;
    expect(held!.held_until).toBe(appealDeadline(decidedAt));
    expect(
      await env.DB.prepare("SELECT main_photo_id FROM profiles WHERE user_id = ?1")
        .bind(target.id)
        .first("main_photo_id"),
    ).toBeNull();
    expect(await env.PHOTOS.get(`photos/${photoId}/full.webp`)).not.toBeNull();
    // The daily cron keeps it inside the window …
    await runScheduled(null, env as never);
    expect(await count("SELECT COUNT(*) AS n FROM held_photos WHERE id = ?1", photoId)).toBe(1);
    // … and purges files and row once the window has ended (a controlled clock, not the wall clock).
    expect(await purgeHeldPhotos(env, held!.held_until - 1)).toBe(0);
    await purgeHeldPhotos(env, held!.held_until);
    expect(await count("SELECT COUNT(*) AS n FROM held_photos WHERE id = ?1", photoId)).toBe(0);
    for (const v of VARIANTS) expect(await env.PHOTOS.get(`photos/${photoId}/${v}.webp`)).toBeNull();
  });

  it("a photo reported as showing a minor is deleted at once, never held", async () => {
    const { target, photoId } = await memberWithPhoto();
    const { caseId } = await reportedCase(target, "minor", `photo=${photoId}`);
    await decideAs(await moderator(), caseId, {
      action: "remove_photo",
      rule: "age",
      facts: "The photo shows a child.",
    });
    expect(await count("SELECT COUNT(*) AS n FROM held_photos WHERE id = ?1", photoId)).toBe(0);
    for (const v of VARIANTS) expect(await env.PHOTOS.get(`photos/${photoId}/${v}.webp`)).toBeNull();
  });

  it("appealDeadline is six calendar months", () => {
    expect(appealDeadline(Date.UTC(2026, 0, 15) / 1000)).toBe(Date.UTC(2026, 6, 15) / 1000);
    expect(appealDeadline(Date.UTC(2026, 8, 30, 12) / 1000)).toBe(Date.UTC(2027, 2, 30, 12) / 1000);
  });
});

const PASSWORD = "Member-pass-2026";
const ORIGIN = { origin: () => "http://localhost" };

/** A member decided against by a first moderator; returns the statement link from the mail. */
async function decided(
  action: string,
  o: { language?: string; category?: string; target?: string; member?: { id: string; email: string } } = {},
) {
  const member = o.member ?? (await createMember({ language: o.language ?? "de" }));
  await env.DB.prepare("UPDATE users SET password_hash = ?2 WHERE id = ?1")
    .bind(member.id, await hashPassword(PASSWORD, env.PASSWORD_PEPPER))
    .run();
  const { caseId } = await reportedCase(member, o.category ?? "harassment", o.target ?? `member=${member.id}`);
  const decider = await createOperator("moderator");
  const res = await decideAs(await operatorCookie(decider.id), caseId, {
    action,
    rule: "conduct",
    facts: "Sent threats to three members on 20 November.",
    ...(action === "suspend" || action === "restrict_messaging" ? { days: "5" } : {}),
  });
  expect(res.status).toBe(302);
  const decisionId = (await env.DB.prepare("SELECT id FROM decisions WHERE case_id = ?1")
    .bind(caseId)
    .first<string>("id"))!;
  const mail = (await mailsTo(member.email)).at(-1)!;
  const link = /\/statement\/[^\s)"]+/.exec(mail.text)![0];
  return { member, decider, decisionId, link };
}
const appealOf = (decisionId: string) =>
  env.DB.prepare("SELECT id, status, operator_id, reasons, decided_at FROM appeals WHERE decision_id = ?1")
    .bind(decisionId)
    .first<{ id: string; status: string; operator_id: string | null; reasons: string | null; decided_at: number }>();
const EXPLANATION = "I never wrote those messages; my sister used my phone that evening.";
/** The member appeals from the mailed link; a new operator with `role` decides it (the model's answer). */
async function appealDecided(
  { decisionId, link }: { decisionId: string; link: string },
  role: "moderator" | "admin",
  decision: { outcome: "reversed" | "upheld"; reasons: string },
) {
  await post(link, { explanation: EXPLANATION });
  const appeal = (await appealOf(decisionId))!;
  return decideAppeal(env, await createOperator(role), appeal.id, decision, ORIGIN);
}

describe("appeals", () => {
  it("a banned member appeals from the mailed link without logging in; the decider cannot decide it; another moderator reverses: the member logs in again", async () => {
    const { member, decider, decisionId, link } = await decided("ban");
    const page = await (await get(link)).text();
    expect(page).toContain("Beschwerde gegen diese Entscheidung");
    expect(page).toContain('name="explanation"');
    // Too short: a translated error, nothing filed.
    expect(await (await post(link, { explanation: "no" })).text()).toContain("mindestens 10 Zeichen");
    expect(await appealOf(decisionId)).toBeNull();
    const filed = await post(link, { explanation: EXPLANATION });
    expect(filed.status).toBe(302);
    expect(filed.headers.get("Location")).toBe(link);
    const after = await (await get(link)).text();
    expect(after).toContain("Wir haben deine Beschwerde am");
    expect(after).not.toContain('name="explanation"');
    // One appeal per decision: a second one is refused, translated.
    expect(await (await post(link, { explanation: "A second appeal, longer than ten." })).text()).toContain(
      "bereits Beschwerde eingelegt",
    );
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM appeals WHERE decision_id = ?1").bind(decisionId).first("n"),
    ).toBe(1);
    const appeal = (await appealOf(decisionId))!;

    // The console lists it; the operator who decided sees it but cannot decide it (page and model).
    const deciderCookie = await operatorCookie(decider.id);
    const list = await (await get("/admin/appeals", { cookie: deciderCookie })).text();
    expect(list).toContain(`/admin/appeals/${appeal.id}`);
    const detail = await (await get(`/admin/appeals/${appeal.id}`, { cookie: deciderCookie })).text();
    expect(detail).toContain("my sister used my phone");
    expect(detail).toContain("Sent threats to three members");
    expect(detail).toContain("Rude and threatening messages");
    expect(detail).toContain("another operator decides");
    expect(
      await (
        await post(
          `/admin/appeals/${appeal.id}`,
          { outcome: "reversed", reasons: "I reverse my own decision." },
          { cookie: deciderCookie },
        )
      ).text(),
    ).toContain("another operator decides");
    expect(
      await decideAppeal(env, decider, appeal.id, { outcome: "reversed", reasons: "Own decision again." }, ORIGIN),
    ).toEqual({ ok: false, error: "same_operator" });
    expect((await appealOf(decisionId))!.status).toBe("open");
    // Still banned: the login leads to the ban page with the statement (decision 173).
    expect((await post("/login", { email: member.email, password: PASSWORD })).headers.get("Location")).toMatch(
      /^\/pages\/ban\?statement=/,
    );
    // Support may not open appeals.
    const support = await operatorCookie((await createOperator("support")).id);
    expect((await get(`/admin/appeals/${appeal.id}`, { cookie: support })).status).toBe(403);

    // A second moderator reverses: ban lifted, profile shown, login works, audit row with the change.
    const second = await createOperator("moderator");
    const res = await post(
      `/admin/appeals/${appeal.id}`,
      { outcome: "reversed", reasons: "The messages came from another device; the ban was wrong." },
      { cookie: await operatorCookie(second.id) },
    );
    expect(res.status).toBe(302);
    const decidedAppeal = (await appealOf(decisionId))!;
    expect(decidedAppeal).toMatchObject({ status: "reversed", operator_id: second.id });
    const state = await env.DB.prepare(
      "SELECT u.suspended_until, p.status, (SELECT reversed_at FROM decisions WHERE id = ?2) AS reversed FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.id = ?1",
    )
      .bind(member.id, decisionId)
      .first<{ suspended_until: number | null; status: string; reversed: number }>();
    expect(state).toEqual({ suspended_until: null, status: "active", reversed: decidedAppeal.decided_at });
    const [audit] = (await auditRows(member.id)).filter((r) => r.action.startsWith("appeal."));
    expect(audit).toMatchObject({
      operatorId: second.id,
      role: "moderator",
      action: "appeal.reversed",
      at: decidedAppeal.decided_at,
      before: { action: "ban", removed: { profileStatus: "active", suspendedUntil: null } },
      after: { appeal: appeal.id, decision: decisionId, outcome: "reversed" },
    });
    const login = await post("/login", { email: member.email, password: PASSWORD });
    expect(login.headers.get("Set-Cookie") ?? "").toMatch(/sid=[^;]/);
    // Told the outcome with reasons: the page and a mail, in German.
    const outcome = await (await get(link)).text();
    expect(outcome).toContain("die Entscheidung aufgehoben");
    expect(outcome).toContain("the ban was wrong");
    const mail = (await mailsTo(member.email)).at(-1)!;
    expect(mail.subject).toMatch(/^Das Ergebnis deiner Beschwerde bei/);
    expect(mail.text).toContain("the ban was wrong");
    expect(mail.text).toContain(link);
    // Decided once: a third operator changes nothing and writes no audit row.
    const third = await createOperator("admin");
    expect(
      await decideAppeal(env, third, appeal.id, { outcome: "upheld", reasons: "Late second outcome." }, ORIGIN),
    ).toEqual({ ok: false, error: "closed" });
    expect((await auditRows(member.id)).filter((r) => r.action.startsWith("appeal."))).toHaveLength(1);
  });

  it("two operators deciding the same appeal at once: one outcome, one audit row", async () => {
    const { member, decisionId, link } = await decided("suspend", { language: "fr" });
    await post(link, { explanation: EXPLANATION });
    const appeal = (await appealOf(decisionId))!;
    const [a, b] = [await createOperator("moderator"), await createOperator("admin")];
    const results = await Promise.all([
      decideAppeal(env, a, appeal.id, { outcome: "reversed", reasons: "Reversed by the first operator." }, ORIGIN),
      decideAppeal(env, b, appeal.id, { outcome: "upheld", reasons: "Upheld by the second operator." }, ORIGIN),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect((await auditRows(member.id)).filter((r) => r.action.startsWith("appeal."))).toHaveLength(1);
  });

  it("upholding changes nothing but the appeal, and tells the member with reasons in their language", async () => {
    const { member, decisionId, link } = await decided("suspend", { language: "fr" });
    await appealDecided({ decisionId, link }, "moderator", {
      outcome: "upheld",
      reasons: "Three members sent screenshots of the threats.",
    });
    expect(await env.DB.prepare("SELECT status FROM profiles WHERE user_id = ?1").bind(member.id).first("status")).toBe(
      "suspended",
    );
    expect(
      await env.DB.prepare("SELECT reversed_at FROM decisions WHERE id = ?1").bind(decisionId).first("reversed_at"),
    ).toBeNull();
    // Still suspended: the login leads to the statement.
    expect((await post("/login", { email: member.email, password: PASSWORD })).headers.get("Location")).toMatch(
      /^\/statement\//,
    );
    expect((await mailsTo(member.email)).at(-1)!.subject).toMatch(/^Le résultat de votre contestation/);
    expect(await (await get(link)).text()).toContain("maintenu la décision");
  });

  it("reversing a photo removal brings the held photo back as main photo and serves it again", async () => {
    const { target, photoId } = await memberWithPhoto();
    const { decisionId, link } = await decided("remove_photo", {
      member: target,
      category: "spam",
      target: `photo=${photoId}`,
    });
    const owner = await sessionCookie(target.id);
    expect((await get(`/photos/${photoId}/full`, { cookie: owner })).status).toBe(404);
    expect(
      await appealDecided({ decisionId, link }, "moderator", {
        outcome: "reversed",
        reasons: "The number was a joke.",
      }),
    ).toEqual({ ok: true });
    expect((await get(`/photos/${photoId}/full`, { cookie: owner })).status).toBe(200);
    expect(
      await env.DB.prepare("SELECT main_photo_id FROM profiles WHERE user_id = ?1")
        .bind(target.id)
        .first("main_photo_id"),
    ).toBe(photoId);
    expect(await count("SELECT COUNT(*) AS n FROM held_photos WHERE id = ?1", photoId)).toBe(0);
  });

  it("reversing a profile text removal puts the old text back", async () => {
    const member = await createMember({ language: "sv" });
    await env.DB.prepare("UPDATE profiles SET about_me = 'I love hiking and old films.' WHERE user_id = ?1")
      .bind(member.id)
      .run();
    const { decisionId, link } = await decided("remove_profile_text", { member });
    expect(
      await env.DB.prepare("SELECT about_me FROM profiles WHERE user_id = ?1").bind(member.id).first("about_me"),
    ).toBe("");
    await appealDecided({ decisionId, link }, "admin", { outcome: "reversed", reasons: "The text breaks no rule." });
    expect(
      await env.DB.prepare("SELECT about_me FROM profiles WHERE user_id = ?1").bind(member.id).first("about_me"),
    ).toBe("I love hiking and old films.");
    expect((await mailsTo(member.email)).at(-1)!.subject).toMatch(/^Resultatet av din överklagan/);
  });

  it("reversing a messaging restriction lets the member write again at once (the conversation forgets its cached rules)", async () => {
    const { alice, conversationId } = await pair({ language: "nl" });
    const send = (body: string) =>
      roomStub(env, conversationId).send({
        conversationId,
        senderId: alice.id,
        prices: PRICES,
        clientId: cid(),
        kind: "text",
        body,
      });
    expect(await send("before: the room caches the rules")).toMatchObject({ ok: true });
    const { decisionId, link } = await decided("restrict_messaging", { member: alice });
    expect(await send("while restricted")).toMatchObject({ ok: false, error: "restricted" });
    await appealDecided({ decisionId, link }, "admin", { outcome: "reversed", reasons: "The messages were not hers." });
    expect(await send("after the appeal")).toMatchObject({ ok: true });
  });

  it("an appeal after six months, on someone else's decision or through a tampered link is refused, nothing changed", async () => {
    const { decisionId, link } = await decided("ban");
    // Someone else: a member logged in on this browser who is not the decision's member.
    const other = await sessionCookie((await createMember()).id);
    expect(await (await post(link, { explanation: EXPLANATION }, { cookie: other })).text()).toContain(
      "betrifft ein anderes Konto",
    );
    // A tampered link.
    expect((await get(`${link.slice(0, -2)}xx`)).status).toBe(404);
    expect((await post(`${link.slice(0, -2)}xx`, { explanation: EXPLANATION })).status).toBe(404);
    // Six months later (the decision moved back instead of moving the clock).
    const created = (await env.DB.prepare("SELECT created_at FROM decisions WHERE id = ?1")
      .bind(decisionId)
      .first<number>("created_at"))!;
    await env.DB.prepare("UPDATE decisions SET created_at = ?2 WHERE id = ?1")
      .bind(decisionId, created - 185 * 86_400)
      .run();
    const page = await (await get(link)).text();
    expect(page).not.toContain('name="explanation"');
    expect(page).toContain("Frist für eine Beschwerde");
    expect(await (await post(link, { explanation: EXPLANATION })).text()).toContain("Die sechs Monate");
    expect(await appealOf(decisionId)).toBeNull();
  });
});
