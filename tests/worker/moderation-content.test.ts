/**
 * Moderators see what they decide on (decision 205): the reported photo in its case (blurred until
 * asked for minors and non-consensual imagery, the asking logged), the profile's photos and texts,
 * and the same to the second moderator of an appeal, a held photo included; served through the
 * console to moderation roles only, never to the public.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../app/entry.worker";
import type { Env } from "../../app/lib/env";
import { describe, expect, it } from "vitest";
import { auditRows, createOperator, operatorCookie } from "./admin-support";
import { createMember, get, photoRow, post, sessionCookie } from "./fixtures";
import { decideAs, mailsTo, reportedCase } from "./moderation-support";

const VARIANTS = ["full", "thumb", "blur"] as const;

/** A member with a photo (files in R2), pending or approved. */
export async function memberWithPhoto(review: "pending" | "approved" = "approved", about = "") {
  const target = await createMember({ language: "de" });
  const photoId = `ph-${crypto.randomUUID()}`;
  await photoRow(target.id, photoId, review).run();
  await env.DB.prepare("UPDATE profiles SET main_photo_id = ?2, about_me = ?3 WHERE user_id = ?1")
    .bind(target.id, photoId, about)
    .run();
  for (const v of VARIANTS) await env.PHOTOS.put(`photos/${photoId}/${v}.webp`, `bytes-${v}`);
  return { target, photoId };
}

describe("the reported content in its case", () => {
  it("a reported photo is shown in its case; a pending one is served to moderators through the console, to no one else", async () => {
    const { target, photoId } = await memberWithPhoto("pending");
    const { caseId, reporter } = await reportedCase(target, "scam", `photo=${photoId}`);
    const mod = await operatorCookie((await createOperator("moderator")).id);
    const page = await (await get(`/admin/reports/${caseId}`, { cookie: mod })).text();
    expect(page).toContain(`src="/admin/photo/${photoId}/full"`);
    const image = await get(`/admin/photo/${photoId}/full`, { cookie: mod });
    expect(image.status).toBe(200);
    expect(new TextDecoder().decode(await image.arrayBuffer())).toBe("bytes-full");
    expect(image.headers.get("Cache-Control")).toBe("private, no-store");
    // Other roles and the public: refused.
    const support = await operatorCookie((await createOperator("support")).id);
    expect((await get(`/admin/photo/${photoId}/full`, { cookie: support })).status).toBe(403);
    expect((await get(`/admin/photo/${photoId}/full`)).status).not.toBe(200);
    expect((await get(`/photos/${photoId}/full`, { cookie: await sessionCookie(reporter.id) })).status).toBe(404);
  });

  it("a photo reported as non-consensual imagery is blurred until the moderator asks; asking is logged", async () => {
    const { target, photoId } = await memberWithPhoto();
    const { caseId } = await reportedCase(target, "ncii", `photo=${photoId}`);
    const mod = await createOperator("moderator");
    const cookie = await operatorCookie(mod.id);
    const page = await (await get(`/admin/reports/${caseId}`, { cookie })).text();
    expect(page).toContain(`src="/admin/photo/${photoId}/blur"`);
    expect(page).not.toContain(`/admin/photo/${photoId}/full`);
    expect(page).toContain("Show the photo (logged)");
    const shown = await post(`/admin/reports/${caseId}`, { intent: "reveal" }, { cookie });
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain(`src="/admin/photo/${photoId}/full"`);
    expect((await auditRows(caseId)).map((r) => [r.action, r.operatorId])).toEqual([["case.view_photo", mod.id]]);
  });

  it("a fake-profile case shows the profile's texts and all its photos, private and pending ones included", async () => {
    const { target, photoId } = await memberWithPhoto("approved", "Model scout, write me on telegram");
    const pending = `ph-${crypto.randomUUID()}`;
    await photoRow(target.id, pending, "pending").run();
    await env.DB.prepare("UPDATE photos SET is_private = 1 WHERE id = ?1").bind(pending).run();
    const { caseId } = await reportedCase(target, "fake");
    const page = await (
      await get(`/admin/reports/${caseId}`, { cookie: await operatorCookie((await createOperator("admin")).id) })
    ).text();
    expect(page).toContain("Model scout, write me on telegram");
    expect(page).toContain(`src="/admin/photo/${photoId}/thumb"`);
    expect(page).toContain(`src="/admin/photo/${pending}/thumb"`);
  });

  it("the second moderator of an appeal sees the held photo; it stays unserved to the public and its owner", async () => {
    const { target, photoId } = await memberWithPhoto();
    const { caseId } = await reportedCase(target, "spam", `photo=${photoId}`);
    const first = await operatorCookie((await createOperator("moderator")).id);
    const res = await decideAs(first, caseId, {
      action: "remove_photo",
      rule: "commercial",
      facts: "The photo shows a phone number for paid dates.",
    });
    expect(res.status).toBe(302);
    const link = /\/statement\/[^\s)"]+/.exec((await mailsTo(target.email)).at(-1)!.text)![0];
    expect((await post(link, { explanation: "That number is my shop, not paid dates at all." })).status).toBe(302);
    const appealId = (await env.DB.prepare(
      "SELECT a.id FROM appeals a JOIN decisions d ON d.id = a.decision_id WHERE d.case_id = ?1",
    )
      .bind(caseId)
      .first<string>("id"))!;
    const second = await operatorCookie((await createOperator("moderator")).id);
    const page = await (await get(`/admin/appeals/${appealId}`, { cookie: second })).text();
    expect(page).toContain(`src="/admin/photo/${photoId}/full"`);
    expect(page).toContain("held for the appeal window");
    const image = await get(`/admin/photo/${photoId}/full`, { cookie: second });
    expect(image.status).toBe(200);
    expect(new TextDecoder().decode(await image.arrayBuffer())).toBe("bytes-full");
    for (const v of VARIANTS)
      expect((await get(`/photos/${photoId}/${v}`, { cookie: await sessionCookie(target.id) })).status).toBe(404);
  });
});

describe("the console's own hostname", () => {
  const through = async (url: string, bindings: Env) => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request(url, { redirect: "manual" }), bindings, ctx);
    await waitOnExecutionContext(ctx);
    return res.status;
  };
  it("with ADMIN_HOST set, /admin and /api/admin answer 404 on any other host; the member site is unchanged", async () => {
    const bindings = { ...(env as unknown as Env), ADMIN_HOST: "console.example.com" };
    for (const path of ["/admin/login", "/admin", "/admin/reports", "/admin/photo/x/full", "/api/admin/campaign"])
      expect(await through(`http://localhost${path}`, bindings)).toBe(404);
    expect(await through("http://console.example.com/admin/login", bindings)).toBe(200);
    expect(await through("http://localhost/pages/terms", bindings)).toBe(200);
    // Unset (development): the console answers on every host.
    expect(await through("http://localhost/admin/login", env as unknown as Env)).toBe(200);
  });
});
