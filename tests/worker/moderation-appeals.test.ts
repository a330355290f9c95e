/**
 * Removed photos held for the appeal window, and appeals (issue 20 item 5, decision 174): the window,
 * one appeal per decision, another operator only, each reversal restoring what was removed with its
 * audit row in the same batch, the outcome told to the member in their language.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runScheduled } from "../../app/lib/scheduled.server";
import { appealDeadline, purgeHeldPhotos } from "../../app/models/held-photos.server";
import { createMember, get, sessionCookie } from "./fixtures";
import { decideAs, moderator, reportedCase } from "./moderation-support";

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
