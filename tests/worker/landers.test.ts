import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createMember, get, photoRow } from "./fixtures";
import enLanders from "../../locales/en/landers.json";
import deLanders from "../../locales/de/landers.json";
import { LANDER_KINDS } from "../../app/models/landers.server";
import { nearMembersQuery } from "../../app/models/landing.server";
import { getDb } from "../../db/client";
import { LOCALE_LANGUAGES, MESSAGES } from "../../app/lib/resources.generated";

async function page(path: string, init: Parameters<typeof get>[1] = {}) {
  const res = await get(path, init);
  return { status: res.status, html: await res.text() };
}

const year = new Date().getUTCFullYear();
async function make(
  name: string,
  o: Parameters<typeof createMember>[0] & { city: string; lat: number; lon: number; seenAgo?: number },
) {
  const m = await createMember({ name, ...o });
  await env.DB.batch([
    photoRow(m.id, `photo-${m.id}`),
    env.DB.prepare("UPDATE profiles SET main_photo_id = ?2, city = ?3, lat = ?4, lon = ?5 WHERE user_id = ?1").bind(
      m.id,
      `photo-${m.id}`,
      o.city,
      o.lat,
      o.lon,
    ),
    env.DB.prepare("UPDATE users SET last_seen_at = unixepoch() - ?2 WHERE id = ?1").bind(m.id, o.seenAgo ?? 0),
  ]);
  return m;
}

describe("landers", () => {
  beforeAll(async () => {
    await make("Lotte", {
      gender: "female",
      dateOfBirth: `${year - 30}-03-01`,
      country: "NL",
      city: "Haarlem",
      lat: 52.381,
      lon: 4.637,
      seenAgo: 50,
    });
    await make("Greta", {
      gender: "female",
      dateOfBirth: `${year - 60}-03-01`,
      country: "DE",
      city: "Köln",
      lat: 50.938,
      lon: 6.96,
      seenAgo: 10,
    });
    await make("Milena", {
      gender: "female",
      dateOfBirth: `${year - 42}-03-01`,
      country: "DE",
      city: "Bonn",
      lat: 50.733,
      lon: 7.1,
      seenAgo: 20,
    });
    await make("Bastian", {
      gender: "male",
      dateOfBirth: `${year - 33}-03-01`,
      country: "NL",
      city: "Leiden",
      lat: 52.158,
      lon: 4.493,
      seenAgo: 30,
    });
  });

  it.each(LANDER_KINDS)("/landers/%s shows its own visual of real members and a sign-up form", async (kind) => {
    const { status, html } = await page(`/landers/${kind}`, { country: "NL" });
    expect(status).toBe(200);
    expect(html).toContain(`data-kind="${kind}"`);
    expect(html).toContain('data-testid="lander-visual"');
    expect(html).toContain("Lotte, 30");
    expect(html).toMatch(/<form[^>]*method="post"[^>]*action="\/signup"/);
    expect(html).toContain(`<title>`);
    // No green "online" dot on members' cards or the kicker: a lander does not know who is online (decision 179).
    expect(html).not.toContain("ld-dot");
  });

  it("the slug picks the niche of copy and members; an unknown slug falls back to the brand's", async () => {
    const gay = await page("/landers/gallery/gay");
    expect(gay.html).toContain('data-niche="gay"');
    expect(gay.html).toContain(enLanders.niche.gay);
    expect(gay.html).toContain("Bastian, 33");
    expect(gay.html).not.toContain("Lotte, 30");

    const gilf = await page("/landers/tinderswipe/gilf");
    expect(gilf.html).toContain('data-niche="gilf"');
    expect(gilf.html).toContain("Greta, 60");
    expect(gilf.html).not.toContain("Milena, 42");

    const fallback = await page("/landers/video/summer-campaign", { host: "de.localhost" });
    expect(fallback.html).toContain('data-niche="milf"'); // Herzklang's niche
    expect(fallback.html).toContain(deLanders.niche.milf);
    expect(fallback.html).toContain("Milena, 42");
  });

  it("the map puts the visitor's country first and places pins on coarse grid cells only", async () => {
    const { html } = await page("/landers/maplanding/general", { country: "DE" });
    const pins = [...html.matchAll(/class="ld-pin( ld-pin-near)?"[^>]*style="left:(\d+)%;top:(\d+)%/g)];
    expect(pins.length).toBeGreaterThan(0);
    // Whole percent only: never the stored coordinates.
    expect(html).not.toContain("50.938");
    expect(html).not.toContain("6.96");
    const list = /<div class="ld-nearlist">[\s\S]*?<\/ul>/.exec(html)![0];
    expect(list.indexOf("Greta")).toBeGreaterThan(-1);
    expect(list.indexOf("Lotte")).toBe(-1); // NL, not near a German visitor while Germans are there
    expect(list).toContain("Members near you in Germany");
    // A visitor from a country without members is promised no distance.
    const far = await page("/landers/maplanding/general", { country: "US" });
    expect(/<div class="ld-nearlist">[\s\S]*?<\/ul>/.exec(far.html)![0]).toContain(`<h2>${enLanders.online}</h2>`);
    // Members of the visitor's country who have no place on the map (outside Europe) are not
    // on the map's list, so the list of Europeans under it is not headed "near you in United States".
    await make("Jenny", {
      gender: "female",
      dateOfBirth: `${year - 35}-03-01`,
      country: "US",
      city: "Austin",
      lat: 30.267,
      lon: -97.743,
      seenAgo: 5,
    });
    const us = await page("/landers/maplanding/general", { country: "US" });
    const usList = /<div class="ld-nearlist">[\s\S]*?<\/ul>/.exec(us.html)![0];
    expect(usList).toContain(`<h2>${enLanders.online}</h2>`);
    expect(usList).not.toContain("near you");
  });

  it("reads 'near you' from a bounded window of recent members through the users_recent index", async () => {
    const { sql, params } = nearMembersQuery(
      getDb(env.DB),
      { g1: "female", g2: "female", bornBy: "2008-01-01", bornAfter: "1900-01-01" },
      "NL",
    ).toSQL();
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    const plan = results.map((r) => r.detail).join("\n");
    expect(plan).toContain("users_recent");
    expect(plan).not.toContain("TEMP B-TREE");
  });

  it("the video landers show a slideshow of photos and say so: no blinking 'Live' badge, no 'watch now' (decision 179)", async () => {
    for (const kind of ["video", "transitionsvideolanding"]) {
      const { html } = await page(`/landers/${kind}/general`, { country: "NL" });
      expect(html, kind).toContain(`<span class="ld-reel-badge">`);
      expect(html, kind).toContain(enLanders.reel);
      expect(html, kind).not.toMatch(/>\s*Live\s*</);
      expect(html, kind).not.toContain("ld-live");
      expect(html, kind).not.toMatch(/Watch now/i);
    }
    // Every language: the badge names what is shown; nothing is called live or a stream to watch.
    const claims =
      /live|direct|vivo|żywo|suora|watch|ansehen|kijken|guarda|titta|míralo|regarder|oglądaj|se nu|se nå|katso nyt/i;
    for (const lng of LOCALE_LANGUAGES) {
      const l = (await MESSAGES[lng]()).default.landers as Record<string, unknown>;
      expect(l.live, lng).toBeUndefined();
      expect(
        [l.reel, l.play].filter((c) => claims.test(String(c))),
        lng,
      ).toEqual([]);
    }
  });

  it("no lander or landing copy claims members are online (decisions 179, 202)", async () => {
    // The word for "online" in each language's copy, as the old claims used it.
    const online = /online|en ligne|conectad|en línea|paikalla|pålogget|på nett/i;
    for (const lng of LOCALE_LANGUAGES) {
      const m = (await MESSAGES[lng]()).default;
      const landing = m.landing as Record<string, { kicker?: string; ctaTitle?: string }>;
      const landers = m.landers as {
        niche: Record<string, string>;
        steps: { s2: string };
      };
      const pages = m.pages as { niche: Record<string, string>; landers: Record<string, { headline?: string }> };
      const claims = [
        ...["general", "she", "bdsm", "bbw", "gilf", "milf", "gay"].flatMap((n) => [
          landing[n]!.kicker!,
          landing[n]!.ctaTitle!,
        ]),
        ...Object.values(landers.niche),
        landers.steps.s2,
        ...Object.values(pages.niche),
        ...Object.values(pages.landers).flatMap((l) => (typeof l.headline === "string" ? [l.headline] : [])),
      ];
      expect(
        claims.filter((c) => online.test(c)),
        lng,
      ).toEqual([]);
    }
    for (const kind of ["socialnetwork", "alonetonight"]) {
      const { html } = await page(`/landers/${kind}/general`, { country: "NL" });
      expect(html).not.toContain("Just got online");
      expect(html).not.toContain("ld-typing"); // nobody is typing to a visitor
    }
    const map = await page("/landers/maplanding/general", { country: "NL" });
    expect(map.html).not.toMatch(/online (right )?now/i);
  });

  it("no illustrative text or made-up time beside a real member; the swipe end card claims nothing happened (decision 202)", async () => {
    const social = (await page("/landers/socialnetwork/general", { country: "NL" })).html;
    const night = (await page("/landers/alonetonight/general", { country: "NL" })).html;
    for (const html of [social, night]) {
      expect(html).toContain("Lotte, 30");
      expect(html).not.toMatch(/minutes? ago|hours? ago|to meet this week|I reply to everyone|New here\. Who is up/i);
      expect(html).not.toContain("ld-bubble");
    }
    const swipe = (await page("/landers/tinderswipe/general", { country: "NL" })).html;
    expect(swipe).not.toMatch(/liked you back|your matches/i);
    for (const lng of LOCALE_LANGUAGES) {
      const copy = (await MESSAGES[lng]()).default.landers as Record<string, unknown>;
      expect(copy.feed, lng).toBeUndefined();
      expect(copy.night, lng).toBeUndefined();
    }
  });
});
