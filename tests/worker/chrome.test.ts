/** The chrome every page shares (top bar, footer, site-entry warning) and the landing page of each brand. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createMember, get, photoRow, post, sessionCookie } from "./fixtures";
import { recentMembersQuery } from "../../app/models/landing.server";
import { getDb } from "../../db/client";

// A page that renders the default layout for visitors and members alike (development and test only).
const PAGE = "/dev/styleguide";

async function html(path: string, init: Parameters<typeof get>[1] = {}) {
  const res = await get(path, init);
  return { status: res.status, body: await res.text(), res };
}

/** Gives a member unread messages (one conversation) and new likes. */
async function giveCounts(userId: string, unread: number, newLikes: number) {
  const other = await createMember();
  const conv = `conv-${userId}`;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO conversations (id, member_a, member_b, started_by) VALUES (?1, ?2, ?3, ?3)").bind(
      conv,
      userId,
      other.id,
    ),
    env.DB.prepare("INSERT INTO conversation_members (conversation_id, user_id, unread) VALUES (?1, ?2, ?3)").bind(
      conv,
      userId,
      unread,
    ),
  ]);
  for (let i = 0; i < newLikes; i++) {
    const liker = await createMember();
    await env.DB.prepare("INSERT INTO likes (liker_id, liked_id) VALUES (?1, ?2)").bind(liker.id, userId).run();
  }
}

/** The badge with data-badge=name: its visible text and tone, or null. */
function badge(body: string, name: string) {
  const m = new RegExp(
    `<span class="badge badge-(\\w+)" data-badge="${name}"><span aria-hidden="true">([^<]+)</span>`,
  ).exec(body);
  return m ? { tone: m[1], text: m[2] } : null;
}

describe("member top bar", () => {
  it("caps the unread messages badge at 99+ and counts new likes", async () => {
    const m = await createMember({ name: "Capped" });
    await giveCounts(m.id, 120, 3);
    const { body } = await html(PAGE, { cookie: await sessionCookie(m.id) });
    expect(badge(body, "messages")).toEqual({ tone: "unread", text: "99+" });
    expect(badge(body, "likes")).toEqual({ tone: "primary", text: "3" });
    expect(body).toContain("120 unread messages");
    // The document title carries unread messages plus new likes.
    expect(body).toContain("<title>(123) ");
  });

  it("shows no badge when nothing is unread", async () => {
    const m = await createMember();
    const { body } = await html(PAGE, { cookie: await sessionCookie(m.id) });
    expect(badge(body, "messages")).toBeNull();
    expect(badge(body, "likes")).toBeNull();
    expect(body).toContain('href="/chats"');
  });

  it("shows Get Premium and no credits entry to free members", async () => {
    const m = await createMember({ paidUser: false, credits: 0 });
    const { body } = await html(PAGE, { cookie: await sessionCookie(m.id) });
    expect(body).toContain('data-testid="get-premium"');
    expect(body).toContain("Get Premium");
    expect(body).not.toContain('href="/credits"');
    expect(badge(body, "credits")).toBeNull();
  });

  it.each([
    // The balance is always there (decision 215), quiet above 10.
    [11, { tone: "muted", text: "11" }],
    [250, { tone: "muted", text: "250" }],
    [10, { tone: "warning", text: "10" }],
    [1, { tone: "warning", text: "1" }],
    [0, { tone: "danger", text: "0" }],
  ])("shows paid members the credits entry; with %i credits the badge is %o", async (credits, expected) => {
    const m = await createMember({ paidUser: true, credits });
    const { body } = await html(PAGE, { cookie: await sessionCookie(m.id) });
    expect(body).toContain('href="/credits"');
    expect(body).not.toContain('data-testid="get-premium"');
    expect(badge(body, "credits")).toEqual(expected);
  });

  it("has the account menu (profile, settings, logout form) and no Login button", async () => {
    const m = await createMember({ name: "Menuowner" });
    const { body } = await html(PAGE, { cookie: await sessionCookie(m.id) });
    expect(body).toMatch(/<details class="dropdown account-menu">/);
    expect(body).toContain('href="/profile"');
    expect(body).toContain('href="/settings"');
    expect(body).toMatch(/<form method="post" action="\/api\/logout.php"/);
    expect(body).toContain("Menuowner");
    expect(body).not.toContain('data-testid="login-button"');
  });

  it("speaks the member's language", async () => {
    const m = await createMember({ paidUser: false });
    const { body } = await html(PAGE, { host: "de.localhost", cookie: await sessionCookie(m.id) });
    expect(body).toContain("Premium holen");
    expect(body).toContain("Nachrichten");
  });
});

describe("visitor top bar and footer", () => {
  it("has a language dropdown that works without JavaScript, Login and Sign-up", async () => {
    const { body } = await html("/");
    expect(body).toMatch(/<details class="dropdown language-menu">/);
    expect(body).toMatch(/<form method="post" action="\/lang-config"/);
    expect(body.match(/name="lng"/g)?.length).toBe(11);
    expect(body).toContain('data-testid="login-button"');
    expect(body).toMatch(/<a[^>]*href="\/signup"[^>]*>Sign up<\/a>/);
  });

  it("switches the language with the form post and remembers it", async () => {
    const res = await post("/lang-config", { lng: "fr", redirectTo: "/" });
    expect(res.status).toBe(302);
    const cookie = res.headers.get("Set-Cookie")!.split(";")[0]!;
    const { body } = await html("/", { cookie });
    expect(body).toContain('lang="fr"');
    expect(body).toContain("Inscription gratuite");
  });

  it("lists every footer link and the disclaimer in the current language", async () => {
    const { body } = await html("/", { host: "nl.localhost" });
    for (const href of [
      "/pages/terms",
      "/pages/privacy",
      "/pages/cookies",
      "/pages/ban",
      "/pricing",
      "/complaints",
      "/pages/return-policy",
      "/pages/faq",
      "/pages/service",
    ])
      expect(body).toContain(`href="${href}"`);
    // A brand with team profiles: the entertainment service says so in its footer (decision 212).
    expect(body).toContain(
      "Flirtlokaal is een online chat- en flirtdienst ter vermaak voor volwassenen van 18 jaar en ouder",
    );
  });

  it("links no US record-keeping (2257) statement, to a visitor from the US either (decision 239)", async () => {
    for (const country of ["US", "NL"]) {
      const { body } = await html("/", { country });
      expect(body).not.toContain("2257");
      expect(body).not.toContain("/pages/compliance");
    }
  });

  it("renders unknown URLs as a 404 inside the site chrome", async () => {
    const { status, body } = await html("/no-such-page");
    expect(status).toBe(404);
    expect(body).toContain("This page could not be found");
    expect(body).toContain("Back to the home page");
    expect(body).toContain('class="topbar');
    expect(body).toContain('data-testid="disclaimer"');
  });
});

describe("site-entry warning", () => {
  it("shows to visitors from a listed country until accepted", async () => {
    expect((await html("/", { country: "NL" })).body).toContain('data-testid="site-entry"');
    const accepted = await post("/api/site-entry", { redirectTo: "/" });
    const cookie = accepted.headers.get("Set-Cookie")!.split(";")[0]!;
    expect(cookie).toMatch(/^entry_ok=\d+$/);
    expect((await html("/", { country: "NL", cookie })).body).not.toContain('data-testid="site-entry"');
  });

  it("does not show outside the list, nor to members", async () => {
    expect((await html("/", { country: "US" })).body).not.toContain('data-testid="site-entry"');
    const m = await createMember();
    expect((await html(PAGE, { country: "NL", cookie: await sessionCookie(m.id) })).body).not.toContain(
      'data-testid="site-entry"',
    );
  });
});

describe("landing page", () => {
  it("renders each brand's niche in its language with a sign-up form posting the spec fields to /signup", async () => {
    const amora = await html("/");
    expect(amora.body).toContain('data-niche="general"');
    expect(amora.body).toContain("Chat and flirt online"); // a brand with team profiles: the entertainment copy (decision 212)
    const form = /<form method="post" action="\/signup"[\s\S]*?<\/form>/.exec(amora.body)?.[0] ?? "";
    for (const name of ["email", "name", "date_of_birth", "password"]) expect(form).toContain(`name="${name}"`);
    expect(amora.body).toContain('href="/login"');

    const herzklang = await html("/", { host: "de.localhost" });
    expect(herzklang.body).toContain('data-niche="milf"');
    expect(herzklang.body).toContain("Selbstbewusste Frauen, keine Spielchen");
    expect(herzklang.body).toContain('lang="de"');
  });

  it("opens sign-up on a traffic-source brand only with a traffic source, passing it on", async () => {
    const closed = await html("/", { host: "nl.localhost" });
    expect(closed.body).toContain('data-niche="she"');
    expect(closed.body).toContain("Aanmelden via onze partners");
    expect(closed.body).not.toContain('action="/signup"');
    // sub1-3 are tracking, not a traffic source: the landing follows the same rule as /signup.
    expect((await html("/?sub1=abc", { host: "nl.localhost" })).body).not.toContain('action="/signup');
    const open = await html("/?network=partner1&sub1=abc", { host: "nl.localhost" });
    expect(open.body).toContain('action="/signup?network=partner1&amp;sub1=abc"');
    expect(open.body).toContain('name="network" value="partner1"');
    expect(open.body).toContain('name="sub1" value="abc"');
  });

  it("sends members to the members area", async () => {
    const m = await createMember();
    const res = await get("/", { cookie: await sessionCookie(m.id) });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/members");
  });

  it("shows up to 12 recently active members of the niche's audience, with name, age and city only", async () => {
    const make = async (
      name: string,
      o: Parameters<typeof createMember>[0] & { photo?: boolean; seenAgo?: number; city?: string } = {},
    ) => {
      const m = await createMember({ name, ...o });
      await env.DB.batch([
        photoRow(m.id, `photo-${m.id}`),
        env.DB.prepare("UPDATE profiles SET main_photo_id = ?2, city = ?3 WHERE user_id = ?1").bind(
          m.id,
          o.photo === false ? null : `photo-${m.id}`,
          o.city ?? "Utrecht",
        ),
        env.DB.prepare("UPDATE users SET last_seen_at = unixepoch() - ?2 WHERE id = ?1").bind(m.id, o.seenAgo ?? 0),
      ]);
      return m;
    };
    const shown = await make("Shownwoman", { gender: "female", dateOfBirth: "1990-01-01", city: "Haarlem" });
    await make("Malemember", { gender: "male" });
    await make("Nophoto", { gender: "female", photo: false });
    const hidden = await make("Invisiblewoman", { gender: "female" });
    await env.DB.prepare("UPDATE users SET invisible = 1 WHERE id = ?1").bind(hidden.id).run();
    const deleted = await make("Deletedwoman", { gender: "female" });
    await env.DB.prepare("UPDATE users SET deleted_at = unixepoch() WHERE id = ?1").bind(deleted.id).run();
    const disabled = await make("Disabledwoman", { gender: "female" });
    await env.DB.prepare("UPDATE profiles SET status = 'disabled' WHERE user_id = ?1").bind(disabled.id).run();

    const { body } = await html("/");
    const strip = /<ul class="member-grid" data-testid="landing-members">[\s\S]*?<\/ul>/.exec(body)?.[0] ?? "";
    expect(strip).toContain("Shownwoman");
    expect(strip).toContain("Haarlem");
    expect(strip).toContain(`src="/photos/photo-${shown.id}/thumb"`);
    expect(strip).toMatch(/loading="lazy" width="\d+" height="\d+"/);
    for (const name of ["Malemember", "Nophoto", "Invisiblewoman", "Deletedwoman", "Disabledwoman"])
      expect(strip).not.toContain(name);
    expect(body).not.toContain(shown.email);

    // The gay niche shows men; a milf brand (Herzklang) only women aged 35 to 55.
    await env.DB.prepare("UPDATE brands SET niche = 7 WHERE id = 1").run();
    try {
      const gay = await html("/");
      expect(gay.body).toContain("Malemember");
      expect(gay.body).not.toContain("Shownwoman");
    } finally {
      await env.DB.prepare("UPDATE brands SET niche = 1 WHERE id = 1").run();
    }
    const year = new Date().getUTCFullYear();
    await make("Fortywoman", { gender: "female", dateOfBirth: `${year - 40}-01-01` });
    await make("Twentywoman", { gender: "female", dateOfBirth: `${year - 20}-01-01` });
    const milf = await html("/", { host: "de.localhost" });
    expect(milf.body).toContain("Fortywoman, 40");
    expect(milf.body).not.toContain("Twentywoman");

    for (let i = 0; i < 13; i++) await make(`Many${i}`, { gender: "female", seenAgo: 10 + i });
    const full = await html("/");
    const cards = /<ul class="member-grid" data-testid="landing-members">[\s\S]*?<\/ul>/.exec(full.body)?.[0] ?? "";
    expect(cards.match(/<li /g)?.length).toBe(12);
  });

  it("reads the strip through the users_recent index, newest first, without sorting", async () => {
    const { sql, params } = recentMembersQuery(getDb(env.DB), {
      g1: "female",
      g2: "female",
      bornBy: "2008-01-01",
      bornAfter: "1900-01-01",
    }).toSQL();
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    const plan = results.map((r) => r.detail).join("\n");
    expect(plan).toContain("USING INDEX users_recent");
    expect(plan).not.toContain("TEMP B-TREE");
    expect(plan).not.toMatch(/SCAN (users|profiles)\b(?! USING)/);
  });

  it("omits the member strip when nobody qualifies and still renders", async () => {
    await env.DB.prepare("UPDATE brands SET niche = 5 WHERE id = 1").run(); // gilf: 55+, none created
    try {
      const { status, body } = await html("/");
      expect(status).toBe(200);
      expect(body).toContain('data-niche="gilf"');
      expect(body).not.toContain('data-testid="landing-members"');
    } finally {
      await env.DB.prepare("UPDATE brands SET niche = 1 WHERE id = 1").run();
    }
  });
});

describe("web app manifest", () => {
  it("names the brand of the hostname", async () => {
    const res = await get("/manifest.webmanifest", { host: "nl.localhost" });
    expect(res.headers.get("Content-Type")).toContain("application/manifest+json");
    const manifest = (await res.json()) as {
      short_name: string;
      lang: string;
      display: string;
      icons: { purpose?: string }[];
    };
    expect(manifest.short_name).toBe("Flirtlokaal");
    expect(manifest.lang).toBe("nl");
    expect(manifest.display).toBe("standalone");
    expect(manifest.icons.some((i) => i.purpose === "maskable")).toBe(true);
  });
});
