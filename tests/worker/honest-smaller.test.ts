/**
 * Smaller truths (decision 212): a closed sign-up gives one reason on the landing and on /signup; the
 * data export can be read as a page (sections, dates) beside the JSON file; the match moment says
 * "It's a match!" once and shows both members' photos.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createMember, get, photoRow, sessionCookie } from "./fixtures";
import { pageText } from "./accounts-support";

const visible = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<head>[\s\S]*?<\/head>/, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

describe("Flirtlokaal's sign-up without a traffic source", () => {
  it("the landing and /signup give the same one reason, and neither promises a free sign-up in a minute", async () => {
    for (const path of ["/", "/signup"]) {
      const text = visible(await pageText(await get(path, { host: "nl.localhost", headers: { Cookie: "lng=en" } })));
      expect(text, path).toContain("Sign-up through our partners");
      expect(text, path).toContain("Sign-up is only possible through one of our partner sites at the moment.");
      expect(text, path).not.toMatch(/invitation/i);
      expect(text, path).not.toMatch(/less than a minute|under a minute/i);
    }
  });
});

describe("the data export as a page", () => {
  it("shows every section with its rows, moments as dates, and links the JSON download", async () => {
    const me = await createMember({ name: "Exporta" });
    const other = await createMember({ name: "Someone Else" });
    // 2026-01-01T00:00:00Z and 2026-02-03T10:30:00Z: fixed moments, not the clock.
    await env.DB.batch([
      env.DB.prepare("UPDATE users SET created_at = 1767225600 WHERE id = ?1").bind(me.id),
      env.DB.prepare(
        "INSERT INTO likes (liker_id, liked_id, source, created_at) VALUES (?1, ?2, 'profile', 1770114600)",
      ).bind(me.id, other.id),
    ]);
    const res = await get("/settings/my-data", { cookie: await sessionCookie(me.id) });
    expect(res.status).toBe(200);
    const text = visible(await pageText(res));
    for (const title of ["My data", "Account", "Profile", "Likes given", "Payments", "Messages sent", "Credit history"])
      expect(text, title).toContain(title);
    expect(text).toContain("January 1, 2026");
    expect(text).toContain("February 3, 2026");
    expect(text).toContain("Exporta");
    expect(text).toContain(other.id);
    expect(text).not.toContain("password_hash");
    expect(await pageText(await get("/settings/my-data", { cookie: await sessionCookie(me.id) }))).toContain(
      'href="/settings/data"',
    );
    // Logged out: to the login, nothing shown.
    expect((await get("/settings/my-data")).status).toBe(302);
  });
});

describe("the match moment", () => {
  it("says It's a match! once and shows both photos", async () => {
    const me = await createMember({ gender: "male", name: "Mika" });
    const her = await createMember({ name: "Hanna" });
    await env.DB.batch([
      photoRow(me.id, `p-${me.id}`),
      photoRow(her.id, `p-${her.id}`),
      env.DB.prepare("UPDATE profiles SET main_photo_id = 'p-' || user_id WHERE user_id IN (?1, ?2)").bind(
        me.id,
        her.id,
      ),
      env.DB.prepare(
        "INSERT INTO likes (liker_id, liked_id, source) VALUES (?1, ?2, 'swipe'), (?2, ?1, 'profile')",
      ).bind(me.id, her.id),
    ]);
    const html = await pageText(await get(`/swipe-game?match=${her.id}`, { cookie: await sessionCookie(me.id) }));
    expect(visible(html).match(/It's a match!/g)).toHaveLength(1);
    expect(html).toContain(`/photos/p-${me.id}/full`);
    expect(html).toContain(`/photos/p-${her.id}/full`);
  });
});
