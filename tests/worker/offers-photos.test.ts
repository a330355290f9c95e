/** Unlocking a private photo for photo_credits: charged once, then full size for that member only. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { flushedCredits, ledgerOf } from "./wallet-support";
import { createMember, get, post, sessionCookie } from "./fixtures";
import { photoKey } from "../../app/models/photos.server";

async function privatePhoto(ownerId: string, isPrivate = true) {
  const id = `ph-${crypto.randomUUID()}`;
  await env.DB.prepare(
    "INSERT INTO photos (id, user_id, is_private, width, height, review) VALUES (?1, ?2, ?3, 10, 10, 'approved')",
  )
    .bind(id, ownerId, isPrivate ? 1 : 0)
    .run();
  for (const v of ["full", "thumb", "blur"] as const) await env.PHOTOS.put(photoKey(id, v), v.toUpperCase());
  return id;
}

const photo = async (id: string, cookie?: string) => await (await get(`/photos/${id}/full`, { cookie })).text();
const unlock = (ownerId: string, photoId: string, cookie: string) =>
  post(`/members/${ownerId}`, { intent: "unlock", photoId }, { cookie });
const balance = async (id: string) => flushedCredits(id);
const ledger = async (id: string) => ({
  results: (await ledgerOf(id, (r) => r.reason === "photo")).map((r) => ({
    delta: r.delta,
    reason: r.reason,
    ref_id: r.ref_id,
  })),
});

describe("unlocking a private photo", () => {
  it("asks before spending: the profile offers the unlock for photo_credits with a confirmation", async () => {
    const owner = await createMember();
    await privatePhoto(owner.id);
    const viewer = await createMember({ credits: 12 });
    const html = await (await get(`/members/${owner.id}`, { cookie: await sessionCookie(viewer.id) })).text();
    expect(html).toContain("Unlock for 5 credits");
    expect(html).toContain("View this private photo for 5 credits? It stays unlocked for you.");
  });

  it("charges photo_credits once, even for 10 requests at once; then full size for that member only", async () => {
    const owner = await createMember();
    const id = await privatePhoto(owner.id);
    const viewer = await createMember({ credits: 12 });
    const cookie = await sessionCookie(viewer.id);
    const other = await sessionCookie((await createMember({ credits: 12 })).id);
    expect(await photo(id, cookie)).toBe("BLUR");
    const results = await Promise.all(Array.from({ length: 10 }, () => unlock(owner.id, id, cookie)));
    expect(results.every((r) => r.status === 302)).toBe(true);
    expect(await balance(viewer.id)).toBe(7);
    expect((await ledger(viewer.id)).results).toEqual([{ delta: -5, reason: "photo", ref_id: id }]);
    expect(await photo(id, cookie)).toBe("FULL");
    expect(await photo(id, other)).toBe("BLUR");
    expect(await photo(id)).toBe("BLUR");
    expect(await (await get(`/members/${owner.id}`, { cookie })).text()).not.toContain("Unlock for 5 credits");
  });

  it("too few credits: nothing charged, nothing unlocked, the checkout offered with the active discount", async () => {
    const owner = await createMember();
    const id = await privatePhoto(owner.id);
    const viewer = await createMember({ credits: 4 });
    const res = await unlock(owner.id, id, await sessionCookie(viewer.id));
    expect(res.status).toBe(402);
    const html = await res.text();
    expect(html).toContain("You do not have enough credits to view this photo.");
    expect(html).toContain("Buy credits with 25% off"); // a member minutes old has the time bonus
    expect(await balance(viewer.id)).toBe(4);
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM photo_unlocks WHERE user_id = ?1").bind(viewer.id).first("n"),
    ).toBe(0);
  });

  it("refuses what cannot be unlocked: a public photo, an unknown id, a blocker's photo, a visitor; a premium member pays nothing", async () => {
    const owner = await createMember();
    const pub = await privatePhoto(owner.id, false);
    const viewer = await createMember({ credits: 20 });
    const cookie = await sessionCookie(viewer.id);
    expect((await unlock(owner.id, pub, cookie)).status).toBe(404);
    expect((await unlock(owner.id, "nope", cookie)).status).toBe(404);
    expect((await unlock(owner.id, "x".repeat(500), cookie)).status).toBe(400);
    const blocker = await createMember();
    const blocked = await privatePhoto(blocker.id);
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id) VALUES (?1, ?2)")
      .bind(blocker.id, viewer.id)
      .run();
    expect((await unlock(blocker.id, blocked, cookie)).status).toBe(404);
    const priv = await privatePhoto(owner.id);
    expect((await post(`/members/${owner.id}`, { intent: "unlock", photoId: priv })).status).toBe(302); // to /login
    const premium = await createMember({ paidUser: true, credits: 20 });
    expect((await unlock(owner.id, priv, await sessionCookie(premium.id))).status).toBe(302);
    expect(await balance(premium.id)).toBe(20);
    expect(await balance(viewer.id)).toBe(20);
  });
});
