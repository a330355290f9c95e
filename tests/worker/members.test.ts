import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { get, post, sessionCookie } from "./fixtures";
import { blockRow, deleteUser, dobForAge, likeAs, member } from "./members-support";
import { clockStopped } from "./clock";

const html = async (path: string, cookie?: string) => {
  const res = await get(path, { cookie });
  return { status: res.status, body: await res.text() };
};

describe("profile view authorization", () => {
  let target: string, freeCookie: string, premiumCookie: string, blockedCookie: string, ownerCookie: string;
  beforeAll(async () => {
    target = (
      await member({
        name: "Roos Target",
        city: "Utrecht",
        region: "UT",
        interests: ["wine", "hiking"],
        hairColour: "red",
        lat: 52.09,
        lon: 5.12,
      })
    ).id;
    ownerCookie = await sessionCookie(target);
    freeCookie = await sessionCookie((await member()).id);
    premiumCookie = await sessionCookie((await member({ paidUser: true })).id);
    const blocked = (await member({ paidUser: true })).id;
    blockedCookie = await sessionCookie(blocked);
    await blockRow(target, blocked);
  });

  it("shows the profile to visitors, free and premium members and the owner, with city level location only", async () => {
    for (const cookie of [undefined, freeCookie, premiumCookie, ownerCookie]) {
      const { status, body } = await html(`/members/${target}`, cookie);
      expect(status).toBe(200);
      expect(body).toContain("Roos Target");
      expect(body).toContain("Utrecht");
      expect(body).toContain("Hiking");
      expect(body).toContain("Red");
      expect(body).not.toContain("52.09");
    }
  });

  it("tells a blocked member who blocked them, and nothing more", async () => {
    const { status, body } = await html(`/members/${target}`, blockedCookie);
    expect(status).toBe(403);
    expect(body).toContain("You&#x27;re blocked by");
    expect(body).toContain("Roos Target");
    expect(body).toContain("You do not have access to this page.");
    expect(body).not.toContain("Utrecht");
  });

  it("serves the same screen at /likes/m/{id}", async () => {
    expect((await html(`/likes/m/${target}`, freeCookie)).body).toContain("Roos Target");
  });

  it("answers 404 for deleted, disabled and unknown members", async () => {
    const gone = (await member()).id;
    await deleteUser(gone);
    const off = (await member()).id;
    await env.DB.prepare("UPDATE profiles SET status = 'disabled' WHERE user_id = ?1").bind(off).run();
    for (const id of [gone, off, "no-such-member"])
      expect((await html(`/members/${id}`, premiumCookie)).status).toBe(404);
  });

  it("shows only the fields the brand allows", async () => {
    await env.DB.prepare("UPDATE brands SET visible_profile_fields = ?1 WHERE id = 1")
      .bind(JSON.stringify(["gender", "age"]))
      .run();
    try {
      const { body } = await html(`/members/${target}`, freeCookie);
      expect(body).not.toContain("Hiking");
      expect(body).not.toContain("Utrecht");
    } finally {
      await env.DB.prepare("UPDATE brands SET visible_profile_fields = ?1 WHERE id = 1")
        .bind(
          JSON.stringify([
            "gender",
            "sexuality",
            "age",
            "city",
            "region",
            "hair_colour",
            "eye_colour",
            "body_type",
            "relationship_status",
            "tattoos",
            "signup_reason",
            "about_me",
            "interests",
          ]),
        )
        .run();
    }
  });

  it("shows online status, premium badge and the fictional marker", async () => {
    const id = (
      await member({ name: "Fee", paidUser: true, fictional: true, lastSeenAt: Math.floor(Date.now() / 1000) - 30 })
    ).id;
    const { body } = await html(`/members/${id}`, freeCookie);
    expect(body).toContain("Online");
    expect(body).toContain("Premium");
    expect(body).toContain("Some profiles are run by our team for entertainment.");
  });

  it("shows other photos blurred with a lock to free members and sharp to premium members", async () => {
    const id = (await member()).id;
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO photos (id, user_id, width, height, review) VALUES ('pv-main', ?1, 1, 1, 'approved'), ('pv-other', ?1, 1, 1, 'approved')",
      ).bind(id),
      env.DB.prepare("UPDATE profiles SET main_photo_id = 'pv-main' WHERE user_id = ?1").bind(id),
    ]);
    const free = (await html(`/members/${id}`, freeCookie)).body;
    expect(free).toContain("/photos/pv-other/blur");
    expect(free).not.toContain("/photos/pv-other/thumb");
    expect(free).toContain("Get Premium");
    const premium = (await html(`/members/${id}`, premiumCookie)).body;
    expect(premium).toContain("/photos/pv-other/thumb");
    expect(premium).not.toContain("/photos/pv-other/blur");
  });
});

describe("likes", () => {
  it("goes none → sent → match, and the other side sees received", async () => {
    const a = await member({ name: "Anna A" });
    const b = await member({ name: "Bram B", gender: "male" });
    const ca = await sessionCookie(a.id);
    const cb = await sessionCookie(b.id);
    expect((await html(`/members/${b.id}`, ca)).body).toContain(">Like<");
    expect((await likeAs(ca, b.id)).status).toBe(302);
    expect((await html(`/members/${b.id}`, ca)).body).toContain("Liked");
    // b has a new like until b opens a's profile.
    const api = async () =>
      (await (await get("/api/likes.php", { cookie: cb })).json()) as {
        liked_by: { id: string; like_new: boolean }[];
        profiles: { id: string }[];
      };
    expect((await api()).liked_by).toContainEqual(expect.objectContaining({ id: a.id, like_new: true }));
    expect((await html(`/likes/received`, cb)).body).toContain("Anna A");
    const bView = (await html(`/likes/m/${a.id}`, cb)).body;
    expect(bView).toContain("Anna A likes you.");
    expect((await api()).liked_by).toContainEqual(expect.objectContaining({ id: a.id, like_new: false }));
    await likeAs(cb, a.id);
    expect((await html(`/members/${a.id}`, cb)).body).toContain("It&#x27;s a match!");
    expect((await html(`/likes/matches`, ca)).body).toContain("Bram B");
    expect((await html(`/likes/sent`, cb)).body).toContain("Anna A");
    expect((await api()).profiles.map((p) => p.id)).toContain(a.id);
  });

  it("lists new received likes first", async () => {
    const me = await member();
    const old = await member({ name: "Old Liker" });
    const fresh = await member({ name: "Fresh Liker" });
    await env.DB.batch([
      env.DB.prepare("INSERT INTO likes (liker_id, liked_id, like_new, created_at) VALUES (?1, ?2, 1, 100)").bind(
        fresh.id,
        me.id,
      ),
      env.DB.prepare("INSERT INTO likes (liker_id, liked_id, like_new, created_at) VALUES (?1, ?2, 0, 200)").bind(
        old.id,
        me.id,
      ),
    ]);
    const body = (await html("/likes", await sessionCookie(me.id))).body;
    expect(body.indexOf("Fresh Liker")).toBeLessThan(body.indexOf("Old Liker"));
  });

  it("refuses likes of oneself, of blockers, of deleted members, and from visitors", async () => {
    const a = await member();
    const ca = await sessionCookie(a.id);
    const blocker = await member();
    await blockRow(blocker.id, a.id);
    const gone = await member();
    await deleteUser(gone.id);
    for (const id of [a.id, blocker.id, gone.id]) await likeAs(ca, id);
    const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM likes WHERE liker_id = ?1").bind(a.id).first<number>("n");
    expect(n).toBe(0);
    const visitor = await post(`/members/${blocker.id}`, { intent: "like" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toMatch(/^\/login/);
  });

  it("requires login for the likes API and pages", async () => {
    expect((await get("/api/likes.php")).status).toBe(403);
    expect((await get("/likes")).headers.get("Location")).toMatch(/^\/login/);
  });
});

describe("auto-like", () => {
  it(
    "brings one like a day from a member of the brand, with id and main_image.match",
    clockStopped(async () => {
      const me = await member({ gender: "male" });
      const cookie = await sessionCookie(me.id);
      const liker = await member({ gender: "female", fictional: true });
      await env.DB.batch([
        env.DB.prepare(
          "INSERT INTO photos (id, user_id, width, height, review) VALUES ('al-main', ?1, 1, 1, 'approved')",
        ).bind(liker.id),
        env.DB.prepare("UPDATE profiles SET main_photo_id = 'al-main' WHERE user_id = ?1").bind(liker.id),
      ]);
      const first = (await (await get("/api/auto-like.php", { cookie })).json()) as {
        profile: { id: string; main_image: { match: string } };
      };
      expect(first.profile.id).toBeTruthy();
      const count = () =>
        env.DB.prepare("SELECT COUNT(*) AS n FROM likes WHERE liked_id = ?1").bind(me.id).first<number>("n");
      expect(await count()).toBe(1);
      const again = (await (await get("/api/auto-like.php", { cookie })).json()) as { profile: { id: string } };
      expect(again.profile.id).toBe(first.profile.id);
      expect(await count()).toBe(1);
      expect((await get("/api/auto-like.php")).status).toBe(403);
    }),
  );

  it("never writes a like in a real member's name: with no team-run profile left, nobody likes", async () => {
    const me = await member({ gender: "male", brandId: 4 });
    const real = await member({ gender: "female", brandId: 4, lastSeenAt: Math.floor(Date.now() / 1000) + 20_000 });
    await env.DB.prepare(
      "INSERT INTO likes (liker_id, liked_id, source) SELECT p.user_id, ?1, 'like' FROM profiles p JOIN users u ON u.id = p.user_id WHERE u.brand_id = 4 AND p.fictional = 1",
    )
      .bind(me.id)
      .run();
    const res = (await (
      await get("/api/auto-like.php", { host: "se.localhost", cookie: await sessionCookie(me.id) })
    ).json()) as {
      profile: unknown;
    };
    expect(res.profile).toBeNull();
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM likes WHERE liker_id = ?1").bind(real.id).first<number>("n"),
    ).toBe(0);
  });

  it("picks a fictional member with a main image when there is one", async () => {
    const me = await member({ gender: "male" });
    const liker = await member({
      gender: "female",
      fictional: true,
      lastSeenAt: Math.floor(Date.now() / 1000) + 10_000,
    });
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO photos (id, user_id, width, height, review) VALUES ('al-main2', ?1, 1, 1, 'approved')",
      ).bind(liker.id),
      env.DB.prepare("UPDATE profiles SET main_photo_id = 'al-main2' WHERE user_id = ?1").bind(liker.id),
    ]);
    const res = (await (await get("/api/auto-like.php", { cookie: await sessionCookie(me.id) })).json()) as {
      profile: { id: string; main_image: { match: string } };
    };
    expect(res.profile).toMatchObject({ id: liker.id, main_image: { match: "/photos/al-main2/thumb" } });
  });
});

describe("block and report", () => {
  it("blocks and unblocks; a blocked member cannot see the blocker", async () => {
    const a = await member({ name: "Blocker Bea" });
    const b = await member();
    const ca = await sessionCookie(a.id);
    const cb = await sessionCookie(b.id);
    await post(`/members/${b.id}`, { intent: "block" }, { cookie: ca });
    expect((await html(`/members/${a.id}`, cb)).status).toBe(403);
    expect((await html(`/members/${b.id}`, ca)).body).toContain("Unblock");
    await post(`/members/${b.id}`, { intent: "unblock" }, { cookie: ca });
    expect((await html(`/members/${a.id}`, cb)).status).toBe(200);
  });

  it("the profile links to its report form (notices: moderation-notices.test.ts)", async () => {
    const a = await member();
    const b = await member();
    const page = await get(`/members/${b.id}`, { cookie: await sessionCookie(a.id) });
    expect(await page.text()).toContain(`href="/report?member=${b.id}"`);
    // Each of their photos has its own report link (/report?photo=…).
    await env.DB.prepare("INSERT INTO photos (id, user_id, width, height, review) VALUES (?1, ?2, 10, 10, 'approved')")
      .bind(`rp-${b.id}`, b.id)
      .run();
    const withPhoto = await get(`/members/${b.id}`, { cookie: await sessionCookie(a.id) });
    expect(await withPhoto.text()).toContain(`href="/report?photo=rp-${b.id}"`);
  });
});

describe("search", () => {
  // A country of its own so earlier tests' members do not interfere.
  const C = "AT";
  let viewer: string, cookie: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    viewer = (await member({ gender: "male", country: C })).id;
    cookie = await sessionCookie(viewer);
    ids.young = (await member({ name: "Young Wien", country: C, region: "9", dateOfBirth: dobForAge(22) })).id;
    ids.mid = (await member({ name: "Mid Graz", country: C, region: "6", dateOfBirth: dobForAge(35) })).id;
    ids.old = (await member({ name: "Old Linz", country: C, region: "4", dateOfBirth: dobForAge(60) })).id;
    ids.man = (
      await member({ name: "Man Wien", gender: "male", country: C, region: "9", dateOfBirth: dobForAge(30) })
    ).id;
    ids.invisible = (await member({ name: "Invisible Ines", country: C, invisible: true })).id;
    ids.gone = (await member({ name: "Deleted Dora", country: C })).id;
    await deleteUser(ids.gone);
    ids.disabled = (await member({ name: "Disabled Dana", country: C })).id;
    await env.DB.prepare("UPDATE profiles SET status = 'disabled' WHERE user_id = ?1").bind(ids.disabled).run();
    ids.blocker = (await member({ name: "Blocking Berta", country: C })).id;
    await blockRow(ids.blocker, viewer);
  });

  // The whole age range unless the test sets one: the default is a window around the viewer's own age (decision 180).
  const search = async (q: string, c: string | undefined = cookie) =>
    (await html(`/members?${/min_age=/.test(q) ? q : `min_age=18&max_age=99&${q}`}`, c)).body;

  it("filters by gender and country and hides deleted, disabled, invisible members and blockers", async () => {
    const body = await search(`gender=female&country=${C}`);
    for (const n of ["Young Wien", "Mid Graz", "Old Linz"]) expect(body).toContain(n);
    for (const n of ["Man Wien", "Invisible Ines", "Deleted Dora", "Disabled Dana", "Blocking Berta"])
      expect(body).not.toContain(n);
    expect(body).toContain("3 members found");
    expect(await search(`gender=male&country=${C}`)).toContain("Man Wien");
  });

  it("filters by age range and region", async () => {
    // Only the results before "Similar members" count here.
    const ages = (await search(`gender=female&country=${C}&min_age=30&max_age=40`)).split("Similar members")[0]!;
    expect(ages).toContain("Mid Graz");
    expect(ages).not.toContain("Young Wien");
    expect(ages).not.toContain("Old Linz");
    const region = (await search(`gender=female&country=${C}&countryregion=9`)).split("Similar members")[0]!;
    expect(region).toContain("Young Wien");
    expect(region).not.toContain("Mid Graz");
  });

  it("adds similar results when few match", async () => {
    const body = await search(`gender=female&country=${C}&min_age=30&max_age=40`);
    expect(body).toContain("1 member found");
    expect(body).toContain("Similar members");
    expect(body.indexOf("Similar members")).toBeLessThan(body.lastIndexOf("Young Wien"));
  });

  it("names the region on cards, profiles and the filter in the page's language where the data has it (decision 133)", async () => {
    await env.DB.batch([
      env.DB.prepare(
        `INSERT OR REPLACE INTO regions (country, code, name, names) VALUES ('AT', '9', 'Vienna', '{"de":"Wien","it":"Vienna"}')`,
      ),
      env.DB.prepare("UPDATE profiles SET city = 'Favoriten' WHERE user_id = ?1").bind(ids.young),
    ]);
    const inGerman = await search(`gender=female&country=${C}&countryregion=9`, `${cookie}; lng=de`);
    expect(inGerman).toMatch(/<option value="9"[^>]*>Wien<\/option>/);
    expect(inGerman).toContain("Favoriten, Wien");
    expect(await search(`gender=female&country=${C}&countryregion=9`, `${cookie}; lng=en`)).toContain(
      "Favoriten, Vienna",
    );
    expect((await html(`/members/${ids.young}`, `${cookie}; lng=de`)).body).toContain("Favoriten, Wien");
  });

  it("works without JavaScript: plain GET form with the spec's parameter names", async () => {
    const body = await search(`gender=female&country=${C}`);
    for (const name of ["gender", "country", "countryregion", "min_age", "max_age"])
      expect(body).toContain(`name="${name}"`);
    expect(body).toMatch(/<form method="get"/);
  });

  it("lets visitors search unless the brand's logged_out_search is none", async () => {
    expect(await search(`gender=female&country=${C}`, undefined)).toContain("Young Wien");
    await env.DB.prepare("UPDATE brands SET logged_out_search = 'none' WHERE id = 1").run();
    try {
      const res = await get(`/members?gender=female&country=${C}`);
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toMatch(/^\/login/);
      // With a traffic source the trafficsource setting applies ("other" here).
      expect((await get(`/members?gender=female&country=${C}&network=x`)).status).toBe(200);
      expect((await get(`/members`, { cookie })).status).toBe(200);
    } finally {
      await env.DB.prepare("UPDATE brands SET logged_out_search = 'other' WHERE id = 1").run();
    }
  });

  it("pages results", async () => {
    const C2 = "IE";
    for (let i = 0; i < 30; i++)
      await member({ name: `Pager ${String(i).padStart(2, "0")}`, country: C2, dateOfBirth: dobForAge(20 + i) });
    const p1 = await search(`gender=female&country=${C2}`);
    expect(p1).toContain("30 members found");
    expect(p1).toContain("Page 1 of 2");
    const p2 = await search(`gender=female&country=${C2}&page=2`);
    expect(p2).toContain("Pager 29");
    expect(p2).not.toContain("Pager 00");
  });
});
