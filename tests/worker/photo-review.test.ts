/**
 * Photo review (decision 175): a new photo waits for a moderator. Under "before"
 * (the default) only its owner sees it, by no URL or variant anyone else; under "after" others see
 * it at once and it is still queued. Landers and the visitor landing show approved photos only.
 * Approve is audited in the same batch and guarded on pending; reject is a decision with a statement.
 */
import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { sendMessage } from "../../app/models/chat.server";
import { PRICES, cid, pair } from "./chat-support";
import { createMember, get, photoRow, post, sessionCookie } from "./fixtures";
import { EXIF_JPEG, bytesOf } from "./images";
import { auditRows, createOperator, operatorCookie } from "./admin-support";
import type { PhotoVariant } from "../../app/models/photos.server";

const VARIANTS: PhotoVariant[] = ["full", "thumb", "blur"];
const COUNTRY = "IE"; // no other member of this file lives there: search and "near you" find ours

function upload(cookie: string) {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("photo", new File([bytesOf(EXIF_JPEG)], "a.jpg"));
  return SELF.fetch("http://localhost/profile/photos", {
    method: "POST",
    body: form,
    redirect: "manual",
    headers: { Host: "localhost", Origin: "http://localhost", Cookie: cookie },
  });
}

/** A new member on the default brand, seen just now, who uploads one photo (their main photo). */
async function memberWithUpload(name: string) {
  const m = await createMember({ name, gender: "female", country: COUNTRY, dateOfBirth: "1991-04-01" });
  // Seen a minute "ahead", so the landing's twelve most recent members include them.
  await env.DB.prepare("UPDATE users SET last_seen_at = unixepoch() + 60 WHERE id = ?1").bind(m.id).run();
  const cookie = await sessionCookie(m.id);
  expect((await upload(cookie)).status).toBe(302);
  const photo = await env.DB.prepare(
    "SELECT ph.id, ph.review, p.main_photo_id AS main FROM photos ph JOIN profiles p ON p.user_id = ph.user_id WHERE ph.user_id = ?1",
  )
    .bind(m.id)
    .first<{ id: string; review: string; main: string }>();
  expect(photo).toMatchObject({ review: "pending" });
  expect(photo!.main).toBe(photo!.id);
  return { ...m, cookie, photoId: photo!.id };
}

const status = async (path: string, cookie?: string) => (await get(path, { cookie })).status;
const html = async (path: string, o: Parameters<typeof get>[1] = {}) => (await get(path, o)).text();
const searchHtml = (cookie?: string) => html(`/members?gender=female&country=${COUNTRY}`, { cookie });
const review = (id: string) => env.DB.prepare("SELECT review FROM photos WHERE id = ?1").bind(id).first("review");
const moderatorCookie = async () => operatorCookie((await createOperator("moderator")).id);
const approve = (cookie: string, photo: string) => post("/admin/photos", { intent: "approve", photo }, { cookie });
const setMode = (mode: "before" | "after") =>
  env.DB.prepare("UPDATE brands SET photo_review = ?1 WHERE id = 1").bind(mode).run();

afterEach(async () => {
  await setMode("before");
});

describe("photo review 'before' (the default)", () => {
  it("shows a pending photo to its owner only: no URL or variant for anyone else; the member stays listed with the placeholder", async () => {
    const m = await memberWithUpload("Pendingpia");
    const others = [
      undefined,
      await sessionCookie((await createMember()).id),
      await sessionCookie((await createMember({ paidUser: true })).id),
    ];
    for (const v of VARIANTS) {
      expect(await status(`/photos/${m.photoId}/${v}`, m.cookie), `owner ${v}`).toBe(200);
      for (const cookie of others) expect(await status(`/photos/${m.photoId}/${v}`, cookie), `other ${v}`).toBe(404);
    }
    // Search, the profile page and the member landing: listed, without the photo.
    for (const cookie of others) {
      const search = await searchHtml(cookie);
      expect(search).toContain("Pendingpia");
      expect(search).not.toContain(m.photoId);
      const profile = await html(`/members/${m.id}`, { cookie });
      expect(profile).toContain("Pendingpia");
      expect(profile).not.toContain(m.photoId);
      expect(await html(`/members/${m.id}/landing`, { cookie })).not.toContain(m.photoId);
    }
    // The owner sees it on their own profile page and gets the note on their photos page.
    expect(await html(`/members/${m.id}`, { cookie: m.cookie })).toContain(m.photoId);
    const own = await html("/profile/photos", { cookie: m.cookie });
    expect(own).toContain("Waiting for review");
    expect(own).toContain("Only you can see this photo until a moderator has approved it.");
    // The visitor landing does not advertise them.
    expect(await html("/", { country: COUNTRY })).not.toContain(m.photoId);
  });

  it("keeps a pending photo out of likes, match lists, the conversation list and the chat header", async () => {
    const { alice, bob, conversationId } = await pair();
    const sent = await sendMessage(env, {
      conversationId,
      senderId: alice.id,
      prices: PRICES,
      clientId: cid(),
      kind: "text",
      body: "Hello Bob",
    });
    expect(sent).toMatchObject({ ok: true });
    const photoId = `ph-${crypto.randomUUID()}`;
    await env.DB.batch([
      photoRow(alice.id, photoId, "pending"),
      env.DB.prepare("UPDATE profiles SET main_photo_id = ?2 WHERE user_id = ?1").bind(alice.id, photoId),
      env.DB.prepare("INSERT INTO likes (liker_id, liked_id) VALUES (?1, ?2)").bind(alice.id, bob.id),
    ]);
    const bobCookie = await sessionCookie(bob.id);
    for (const path of ["/chats", `/chats/${conversationId}`, "/likes/received"]) {
      const page = await html(path, { cookie: bobCookie });
      expect(page, path).toContain(`Member`);
      expect(page, path).not.toContain(photoId);
    }
    await approve(await moderatorCookie(), photoId);
    for (const path of ["/chats", `/chats/${conversationId}`, "/likes/received"])
      expect(await html(path, { cookie: bobCookie }), path).toContain(photoId);
  });

  it("after approval the photo is on search, the landing and every variant; approval is audited once, a second click changes nothing", async () => {
    const m = await memberWithUpload("Approvedanna");
    const mod = await createOperator("moderator");
    const cookie = await operatorCookie(mod.id);
    const queue = await html("/admin/photos", { cookie });
    expect(queue).toContain(`/admin/photo/${m.photoId}/thumb`);
    expect(queue).toContain("<strong>Approvedanna</strong>");
    expect(queue).not.toMatch(/<script/i);
    expect(await status(`/admin/photo/${m.photoId}/thumb`, cookie)).toBe(200);

    const res = await approve(cookie, m.photoId);
    expect(await res.text()).toContain("Approved");
    expect(await review(m.photoId)).toBe("approved");
    const audit = await auditRows(m.photoId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      operatorId: mod.id,
      role: "moderator",
      action: "photo.approve",
      targetType: "photo",
      before: { review: "pending" },
      after: { review: "approved" },
    });
    const again = await approve(cookie, m.photoId);
    expect(await again.text()).toContain("no longer pending");
    expect(await auditRows(m.photoId)).toHaveLength(1);
    expect(await html("/admin/photos", { cookie })).not.toContain(`/admin/photo/${m.photoId}/thumb`);

    expect(await searchHtml()).toContain(`/photos/${m.photoId}/thumb`);
    expect(await html("/", { country: COUNTRY })).toContain(`/photos/${m.photoId}/thumb`);
    expect(await html(`/members/${m.id}/landing`)).toContain(`/photos/${m.photoId}/thumb`);
    for (const v of VARIANTS) expect(await status(`/photos/${m.photoId}/${v}`), v).toBe(200);
    expect(await html("/profile/photos", { cookie: m.cookie })).not.toContain("Waiting for review");
  });

  it("a rejection is a remove_photo decision: the photo is held and served to nobody, the member gets the statement; a second click changes nothing", async () => {
    const m = await memberWithUpload("Rejectedrita");
    const cookie = await moderatorCookie();
    const incomplete = await post(
      "/admin/photos",
      { intent: "reject", photo: m.photoId, rule: "conduct", facts: "" },
      { cookie },
    );
    expect(await incomplete.text()).toContain("needs the rule and the facts");
    expect(await review(m.photoId)).toBe("pending");

    const facts = "Shows a weapon pointed at the camera.";
    const res = await post("/admin/photos", { intent: "reject", photo: m.photoId, rule: "conduct", facts }, { cookie });
    expect(await res.text()).toContain("Rejected");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM photos WHERE id = ?1").bind(m.photoId).first("n")).toBe(0);
    // Held for a possible appeal (decision 174): its files stay, nobody is served them, not even its owner.
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM held_photos WHERE id = ?1").bind(m.photoId).first("n")).toBe(
      1,
    );
    for (const v of VARIANTS) expect(await status(`/photos/${m.photoId}/${v}`, m.cookie), `owner ${v}`).toBe(404);
    expect(
      await env.DB.prepare("SELECT main_photo_id FROM profiles WHERE user_id = ?1").bind(m.id).first("main_photo_id"),
    ).toBeNull();
    const decision = await env.DB.prepare(
      "SELECT d.action, d.rule, d.facts, c.target_type, c.target_id, c.status FROM decisions d JOIN moderation_cases c ON c.id = d.case_id WHERE d.member_id = ?1",
    )
      .bind(m.id)
      .all();
    expect(decision.results).toEqual([
      {
        action: "remove_photo",
        rule: "conduct",
        facts,
        target_type: "photo",
        target_id: m.photoId,
        status: "closed",
      },
    ]);
    const mail = await env.DB.prepare('SELECT subject, text FROM mail_outbox WHERE "to" = ?1')
      .bind(m.email)
      .first<{ subject: string; text: string }>();
    expect(mail?.subject).toContain("A decision about your account");
    expect(mail?.text).toContain(facts);
    expect(mail?.text).toMatch(/\/statement\//);

    const again = await post(
      "/admin/photos",
      { intent: "reject", photo: m.photoId, rule: "conduct", facts },
      { cookie },
    );
    expect(await again.text()).toContain("no longer pending");
    expect(await approve(cookie, m.photoId).then((r) => r.text())).toContain("no longer pending");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM decisions WHERE member_id = ?1").bind(m.id).first("n")).toBe(
      1,
    );
  });
});

describe("photo review 'after'", () => {
  it("shows a new photo to others at once and still queues it; landers and the landing wait for approval", async () => {
    await setMode("after");
    const m = await memberWithUpload("Afteralma");
    expect(await review(m.photoId)).toBe("pending");
    for (const v of VARIANTS) expect(await status(`/photos/${m.photoId}/${v}`), v).toBe(200);
    expect(await searchHtml()).toContain(`/photos/${m.photoId}/thumb`);
    expect(await html("/profile/photos", { cookie: m.cookie })).toContain(
      "Others can already see this photo; a moderator will still review it.",
    );
    const cookie = await moderatorCookie();
    expect(await html("/admin/photos", { cookie })).toContain(`/admin/photo/${m.photoId}/thumb`);
    expect(await html("/", { country: COUNTRY })).not.toContain(m.photoId);
    expect(await html(`/members/${m.id}/landing`)).not.toContain(m.photoId);
    // Switching the brand back to "before" hides what is still queued, at once.
    await setMode("before");
    expect(await status(`/photos/${m.photoId}/thumb`)).toBe(404);
    await setMode("after");
    await approve(cookie, m.photoId);
    expect(await html("/", { country: COUNTRY })).toContain(`/photos/${m.photoId}/thumb`);
  });
});

describe("the review console", () => {
  it("admits moderators and admins only; a refused post changes nothing", async () => {
    const m = await memberWithUpload("Guardedgina");
    for (const role of ["support", "finance"] as const) {
      const cookie = await operatorCookie((await createOperator(role)).id);
      expect(await status("/admin/photos", cookie)).toBe(403);
      expect(await status(`/admin/photo/${m.photoId}/thumb`, cookie)).toBe(403);
      expect((await approve(cookie, m.photoId)).status).toBe(403);
    }
    // A member (even the owner) and a visitor get the console's login page.
    for (const cookie of [m.cookie, undefined]) {
      expect(await status("/admin/photos", cookie)).toBe(302);
      expect(await status(`/admin/photo/${m.photoId}/thumb`, cookie)).toBe(302);
      expect((await approve(cookie ?? "", m.photoId)).status).toBe(302);
    }
    expect(await review(m.photoId)).toBe("pending");
    expect(await auditRows(m.photoId)).toHaveLength(0);
    const admin = await operatorCookie((await createOperator("admin")).id);
    expect(await status("/admin/photos", admin)).toBe(200);
  });

  it("lists pending photos oldest first, a page at a time (keyset)", async () => {
    const owner = await createMember({ name: "Queuequinn" });
    // Older than anything else in the queue: these fill the first page and spill onto the second.
    const ids = Array.from({ length: 26 }, (_, i) => `q-${String(i).padStart(2, "0")}-${crypto.randomUUID()}`);
    await env.DB.batch(
      ids.map((id, i) =>
        env.DB.prepare(
          "INSERT INTO photos (id, user_id, width, height, created_at, review) VALUES (?1, ?2, 10, 10, ?3, 'pending')",
        ).bind(id, owner.id, 1000 + i),
      ),
    );
    const cookie = await moderatorCookie();
    const first = await html("/admin/photos", { cookie });
    const positions = ids.slice(0, 24).map((id) => first.indexOf(id));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(first).not.toContain(ids[24]);
    const next = /href="\/admin\/photos\?after=([^"]+)"/.exec(first)?.[1];
    expect(next).toBeTruthy();
    const second = await html(`/admin/photos?after=${next}`, { cookie });
    expect(second).toContain(ids[24]);
    expect(second).toContain(ids[25]);
    expect(second).not.toContain(ids[23]);
    // A made-up cursor is ignored (the first page), never an error.
    expect(await status("/admin/photos?after=%27%3Bdrop", cookie)).toBe(200);
  });
});
