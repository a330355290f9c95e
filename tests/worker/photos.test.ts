import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createMember, get, sessionCookie } from "./fixtures";
import { EXIF_JPEG, SMALL_PNG, SMALL_WEBP, bytesOf } from "./images";
import { MAX_PIXELS, checkUpload, photoKey, type PhotoVariant } from "../../app/models/photos.server";

/** Stores a photo whose three variants carry their own name as bytes, so a test sees which file it got. */
async function storedPhoto(ownerId: string, o: { main?: boolean; private?: boolean } = {}) {
  const id = `ph-${crypto.randomUUID()}`;
  await env.DB.prepare(
    "INSERT INTO photos (id, user_id, is_private, width, height, review) VALUES (?1, ?2, ?3, 10, 10, 'approved')",
  )
    .bind(id, ownerId, o.private ? 1 : 0)
    .run();
  if (o.main) await env.DB.prepare("UPDATE profiles SET main_photo_id = ?1 WHERE user_id = ?2").bind(id, ownerId).run();
  for (const v of ["full", "thumb", "blur"] as const) await env.PHOTOS.put(photoKey(id, v), v.toUpperCase());
  return id;
}

async function fetchPhoto(id: string, variant: PhotoVariant, cookie?: string) {
  const res = await get(`/photos/${id}/${variant}`, { cookie });
  return { status: res.status, body: await res.text(), cache: res.headers.get("Cache-Control") };
}

function upload(bytes: Uint8Array<ArrayBuffer>, cookie: string, name = "a.jpg") {
  const form = new FormData();
  form.set("intent", "upload");
  form.set("photo", new File([bytes], name));
  return SELF.fetch("http://localhost/profile/photos", {
    method: "POST",
    body: form,
    redirect: "manual",
    headers: { Host: "localhost", Origin: "http://localhost", Cookie: cookie },
  });
}

const countPhotos = async (userId: string) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM photos WHERE user_id = ?1").bind(userId).first<number>("n"))!;

describe("photo authorization matrix", () => {
  let owner: string, ownerCookie: string, freeCookie: string, premiumCookie: string, blockedCookie: string;
  let main: string, other: string, priv: string;
  beforeAll(async () => {
    owner = (await createMember()).id;
    ownerCookie = await sessionCookie(owner);
    freeCookie = await sessionCookie((await createMember()).id);
    premiumCookie = await sessionCookie((await createMember({ paidUser: true })).id);
    const blocked = (await createMember({ paidUser: true })).id;
    blockedCookie = await sessionCookie(blocked);
    await env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id) VALUES (?1, ?2)").bind(owner, blocked).run();
    main = await storedPhoto(owner, { main: true });
    other = await storedPhoto(owner);
    priv = await storedPhoto(owner, { private: true });
  });

  const variants: PhotoVariant[] = ["full", "thumb", "blur"];
  const sharp = (v: PhotoVariant) => v.toUpperCase();

  it("shows the main image to everyone who is not blocked", async () => {
    for (const v of variants) {
      expect((await fetchPhoto(main, v)).body).toBe(sharp(v));
      expect((await fetchPhoto(main, v, freeCookie)).body).toBe(sharp(v));
      expect((await fetchPhoto(main, v, premiumCookie)).body).toBe(sharp(v));
      expect((await fetchPhoto(main, v, ownerCookie)).body).toBe(sharp(v));
    }
  });

  it("sends visitors and free members the blurred bytes of other and private photos, whatever they ask", async () => {
    for (const id of [other, priv])
      for (const v of variants) {
        expect((await fetchPhoto(id, v)).body).toBe("BLUR");
        expect((await fetchPhoto(id, v, freeCookie)).body).toBe("BLUR");
      }
  });

  it("sends premium members and the owner every photo sharp", async () => {
    for (const id of [other, priv])
      for (const v of variants) {
        expect((await fetchPhoto(id, v, premiumCookie)).body).toBe(sharp(v));
        expect((await fetchPhoto(id, v, ownerCookie)).body).toBe(sharp(v));
      }
  });

  it("answers 404 to a member the owner blocked, for every photo and variant", async () => {
    for (const id of [main, other, priv])
      for (const v of variants) expect((await fetchPhoto(id, v, blockedCookie)).status).toBe(404);
  });

  it("answers 404 for photos of deleted or disabled members, and for unknown ids and variants", async () => {
    const gone = (await createMember()).id;
    const p = await storedPhoto(gone, { main: true });
    await env.DB.prepare("UPDATE users SET deleted_at = unixepoch() WHERE id = ?1").bind(gone).run();
    for (const v of variants) expect((await fetchPhoto(p, v, premiumCookie)).status).toBe(404);
    const disabled = (await createMember()).id;
    const d = await storedPhoto(disabled, { main: true });
    await env.DB.prepare("UPDATE profiles SET status = 'disabled' WHERE user_id = ?1").bind(disabled).run();
    expect((await fetchPhoto(d, "thumb")).status).toBe(404);
    expect((await fetchPhoto("nope", "thumb")).status).toBe(404);
    expect((await fetchPhoto(main, "original" as PhotoVariant)).status).toBe(404);
  });

  it("keeps member-dependent answers out of shared caches", async () => {
    expect((await fetchPhoto(other, "full", premiumCookie)).cache).toMatch(/^private/);
    expect((await fetchPhoto(main, "thumb")).cache).toMatch(/^private/);
  });
});

describe("upload checks (before decoding)", () => {
  it("reads dimensions from JPEG, PNG and WebP headers", () => {
    for (const b64 of [EXIF_JPEG, SMALL_PNG, SMALL_WEBP])
      expect(checkUpload(bytesOf(b64))).toMatchObject({ ok: true, width: 120, height: 90 });
  });

  it("refuses a non-image, an oversize file and a pixel flood", () => {
    expect(checkUpload(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toEqual({
      ok: false,
      error: "not_image",
    });
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set([0xff, 0xd8, 0xff]);
    expect(checkUpload(big)).toEqual({ ok: false, error: "too_large" });
    // A PNG whose header claims 20000 x 20000 pixels: refused from the header alone.
    const flood = bytesOf(SMALL_PNG).slice(0, 33);
    new DataView(flood.buffer).setUint32(16, 20000);
    new DataView(flood.buffer).setUint32(20, 20000);
    expect(20000 * 20000).toBeGreaterThan(MAX_PIXELS);
    expect(checkUpload(flood)).toEqual({ ok: false, error: "too_many_pixels" });
  });
});

describe("upload", () => {
  it("re-encodes into three variants without EXIF/GPS, makes the first the main image", async () => {
    // The fixture does carry Exif with GPS, so its absence below means it was stripped.
    const input = new TextDecoder("latin1").decode(bytesOf(EXIF_JPEG));
    expect(input).toContain("Exif");
    expect(input).toContain("GPSLatitude");
    const { id } = await createMember();
    const cookie = await sessionCookie(id);
    const res = await upload(bytesOf(EXIF_JPEG), cookie);
    expect(res.status).toBe(302);
    const row = await env.DB.prepare(
      "SELECT p.id, pr.main_photo_id FROM photos p JOIN profiles pr ON pr.user_id = p.user_id WHERE p.user_id = ?1",
    )
      .bind(id)
      .first<{ id: string; main_photo_id: string }>();
    expect(row!.main_photo_id).toBe(row!.id);
    for (const v of ["full", "thumb", "blur"] as const) {
      const obj = await env.PHOTOS.get(photoKey(row!.id, v));
      const bytes = new Uint8Array(await obj!.arrayBuffer());
      expect(checkUpload(bytes).ok).toBe(true);
      const text = new TextDecoder("latin1").decode(bytes);
      expect(text).not.toContain("GPS");
      expect(text).not.toContain("Exif");
    }
  });

  it("accepts PNG and WebP too", async () => {
    const cookie = await sessionCookie((await createMember()).id);
    expect((await upload(bytesOf(SMALL_PNG), cookie, "a.png")).status).toBe(302);
    expect((await upload(bytesOf(SMALL_WEBP), cookie, "a.webp")).status).toBe(302);
  });

  it("refuses a non-image and a pixel flood over HTTP and stores nothing", async () => {
    const { id } = await createMember();
    const cookie = await sessionCookie(id);
    const bad = await upload(new TextEncoder().encode("GIF89a not allowed"), cookie);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("not a JPEG, PNG or WebP");
    const flood = bytesOf(SMALL_PNG);
    new DataView(flood.buffer).setUint32(16, 30000);
    expect((await upload(flood, cookie, "a.png")).status).toBe(400);
    expect(await countPhotos(id)).toBe(0);
  });

  it("stops free members at 3 photos and premium members at 25", async () => {
    const free = await createMember();
    const freeCookie = await sessionCookie(free.id);
    for (let i = 0; i < 3; i++) expect((await upload(bytesOf(EXIF_JPEG), freeCookie)).status).toBe(302);
    const fourth = await upload(bytesOf(EXIF_JPEG), freeCookie);
    expect(fourth.status).toBe(400);
    expect(await fourth.text()).toContain("maximum of 3 photos");
    expect(await countPhotos(free.id)).toBe(3);

    const premium = await createMember({ paidUser: true });
    for (let i = 0; i < 24; i++) await storedPhoto(premium.id);
    const premiumCookie = await sessionCookie(premium.id);
    expect((await upload(bytesOf(EXIF_JPEG), premiumCookie)).status).toBe(302);
    expect(await countPhotos(premium.id)).toBe(25);
    expect((await upload(bytesOf(EXIF_JPEG), premiumCookie)).status).toBe(400);
    expect(await countPhotos(premium.id)).toBe(25);
  });

  it("holds the limit when uploads race", async () => {
    const { id } = await createMember();
    const cookie = await sessionCookie(id);
    await Promise.all(Array.from({ length: 6 }, () => upload(bytesOf(EXIF_JPEG), cookie)));
    expect(await countPhotos(id)).toBe(3);
  });

  it("sets main, marks private (which drops main) and deletes with the files", async () => {
    const { id } = await createMember();
    const cookie = await sessionCookie(id);
    const a = await storedPhoto(id, { main: true });
    const b = await storedPhoto(id);
    const act = (intent: string, photoId: string) => {
      const form = new FormData();
      form.set("intent", intent);
      form.set("photoId", photoId);
      return SELF.fetch("http://localhost/profile/photos", {
        method: "POST",
        body: form,
        redirect: "manual",
        headers: { Host: "localhost", Origin: "http://localhost", Cookie: cookie },
      });
    };
    const main = async () =>
      await env.DB.prepare("SELECT main_photo_id AS m FROM profiles WHERE user_id = ?1")
        .bind(id)
        .first<string | null>("m");
    await act("main", b);
    expect(await main()).toBe(b);
    await act("private", b);
    expect(await main()).toBeNull();
    await act("main", a);
    await act("delete", a);
    expect(await main()).toBeNull(); // b is private, so nothing takes over
    expect(await env.PHOTOS.get(photoKey(a, "full"))).toBeNull();
    // Someone else's photo cannot be touched.
    const other = await createMember();
    const c = await storedPhoto(other.id, { main: true });
    await act("delete", c);
    expect(await countPhotos(other.id)).toBe(1);
  });
});
