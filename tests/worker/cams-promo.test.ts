/** The cams promo block (decision 160): where it shows, and its clicks counted per brand. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { createMember, get, post, sessionCookie } from "./fixtures";
import { brands } from "../../db/seed/brands";
import deOffers from "../../locales/de/offers.json";
import deInput from "../../locales/de/input.json";
import {
  camsPromoShown,
  camsPromoTarget,
  camsPromoSettings,
  type CamsPromoSettings,
} from "../../app/models/cams-promo.server";

const HERZKLANG = 2; // the seed switches the block on for this brand only
const seeded = brands.find((b) => b.id === HERZKLANG)! as (typeof brands)[number] & { camsPromo: CamsPromoSettings };
const de = { host: "de.localhost" };

async function clicks(brandId = HERZKLANG) {
  const rows = await env.DB.prepare(
    "SELECT placement, clicks FROM cams_promo_clicks WHERE brand_id = ?1 ORDER BY placement",
  )
    .bind(brandId)
    .all<{ placement: string; clicks: number }>();
  return Object.fromEntries(rows.results.map((r) => [r.placement, r.clicks]));
}

async function memberOf(brandId: number, country = "DE") {
  const m = await createMember({ brandId, country });
  return sessionCookie(m.id);
}

describe("the cams promo block", () => {
  beforeEach(async () => {
    // Each test starts from the seed's settings and no clicks.
    await env.DB.batch([
      env.DB.prepare("UPDATE brands SET cams_promo_enabled = ?2, cams_promo = ?3 WHERE id = ?1").bind(
        HERZKLANG,
        1,
        JSON.stringify(seeded.camsPromo),
      ),
      env.DB.prepare("DELETE FROM cams_promo_clicks"),
      // The seed also asks DE visitors of Herzklang a proof of age (decision 185): not what is under test here.
      env.DB.prepare("UPDATE brands SET age_check = 'off' WHERE id = ?1").bind(HERZKLANG),
    ]);
  });

  it("shows between search results and on the chats overview where the brand switches it on, for members only", async () => {
    const cookie = await memberOf(HERZKLANG);
    for (const path of ["/members", "/chats"]) {
      const html = await (await get(path, { ...de, cookie, country: "DE" })).text();
      expect(html, path).toContain('data-testid="cams-promo"');
      expect(html).toContain('action="/promo/cams"');
      expect(html).toContain(deOffers.cams.button);
      // The partner URL stays on the server.
      expect(html).not.toContain("cams.example.com");
    }
    // Off on the other brands (the default).
    const amora = await memberOf(1, "NL");
    for (const path of ["/members", "/chats"]) {
      expect(await (await get(path, { cookie: amora, country: "NL" })).text(), path).not.toContain(
        'data-testid="cams-promo"',
      );
    }
  });

  it("is never shown where the country or the niche is excluded, or when the brand switches it off", async () => {
    const cookie = await memberOf(HERZKLANG);
    // The seed excludes the US: a member there (by where they are) is not shown it.
    expect(await (await get("/members", { ...de, cookie, country: "US" })).text()).not.toContain(
      'data-testid="cams-promo"',
    );
    // …nor a member whose profile is in the US, wherever they are.
    const american = await memberOf(HERZKLANG, "US");
    expect(await (await get("/members", { ...de, cookie: american, country: "DE" })).text()).not.toContain(
      'data-testid="cams-promo"',
    );
    await env.DB.prepare("UPDATE brands SET cams_promo = ?2 WHERE id = ?1")
      .bind(HERZKLANG, JSON.stringify({ ...seeded.camsPromo, excludedNiches: ["milf"] }))
      .run();
    expect(await (await get("/members", { ...de, cookie, country: "DE" })).text()).not.toContain(
      'data-testid="cams-promo"',
    );
    await env.DB.prepare("UPDATE brands SET cams_promo = ?2, cams_promo_enabled = 0 WHERE id = ?1")
      .bind(HERZKLANG, JSON.stringify(seeded.camsPromo))
      .run();
    expect(await (await get("/members", { ...de, cookie, country: "DE" })).text()).not.toContain(
      'data-testid="cams-promo"',
    );
  });

  it("counts a member's click per brand and placement and sends them to the partner with its tracking parameters", async () => {
    const cookie = await memberOf(HERZKLANG);
    const res = await post("/promo/cams", { placement: "search" }, { ...de, cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    const html = await res.text();
    // A page that refreshes to the partner (a redirect would be blocked by the CSP's form-action 'self').
    const to = new URL(/<meta http-equiv="refresh" content="0;url=([^"]+)">/.exec(html)![1]!.replaceAll("&#38;", "&"));
    expect(html).toContain(deOffers.cams.continue); // Herzklang speaks German
    expect(to.origin + to.pathname).toBe("https://cams.example.com/live");
    expect(Object.fromEntries(to.searchParams)).toEqual({
      aff: "herzklang",
      campaign: "members",
      utm_source: "herzklang",
    });
    await post("/promo/cams", { placement: "search" }, { ...de, cookie });
    await post("/promo/cams", { placement: "chats" }, { ...de, cookie });
    expect(await clicks()).toEqual({ chats: 1, search: 2 });
  });

  it("counts nothing for a GET (a prefetch or a crawler), a visitor, a brand without it, another site, or a bad placement", async () => {
    const cookie = await memberOf(HERZKLANG);
    const gets = await get("/promo/cams", { ...de, cookie });
    expect(gets.status).toBe(405);
    expect(gets.headers.get("Location")).toBeNull();
    const visitor = await post("/promo/cams", { placement: "search" }, de);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toMatch(/^\/login/);
    const amora = await memberOf(1, "NL");
    expect((await post("/promo/cams", { placement: "search" }, { cookie: amora })).status).toBe(404);
    expect(
      (await post("/promo/cams", { placement: "search" }, { ...de, cookie, origin: "https://evil.example" })).status,
    ).toBe(403);
    const bad = await post("/promo/cams", { placement: "../../etc" }, { ...de, cookie });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe(deInput.body.malformed);
    expect((await post("/promo/cams", { placement: "search".repeat(20_000) }, { ...de, cookie })).status).toBe(413);
    expect(await clicks()).toEqual({});
    expect(await clicks(1)).toEqual({});
  });

  it("treats settings that do not parse as off; only an https partner URL is ever a target", async () => {
    const brand = { niche: 6, camsPromoEnabled: true, camsPromo: { ...seeded.camsPromo, url: "javascript:alert(1)" } };
    const where = { member: { country: "DE" }, country: "DE", placement: "search" as const };
    expect(camsPromoShown(brand, where)).toBe(false);
    expect(
      camsPromoShown({ ...brand, camsPromo: { ...seeded.camsPromo, url: "http://cams.example.com/" } }, where),
    ).toBe(false);
    expect(camsPromoShown({ ...brand, camsPromo: seeded.camsPromo }, where)).toBe(true);
    expect(camsPromoShown({ ...brand, camsPromo: seeded.camsPromo }, { ...where, member: null })).toBe(false);
    // A parameter of the URL's own is replaced by the brand's, never doubled.
    const promo = camsPromoSettings().parse({ ...seeded.camsPromo, url: "https://cams.example.com/live?aff=old&x=1" });
    expect(camsPromoTarget(promo)).toBe(
      "https://cams.example.com/live?aff=herzklang&x=1&campaign=members&utm_source=herzklang",
    );
  });
});
