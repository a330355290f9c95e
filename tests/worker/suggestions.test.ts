/**
 * The automatic like is a suggestion, not a like (decision 214): listed apart, no badge, no "new", no
 * "like back", no match; and it fits the member as search's defaults do, like the swipe deck and the
 * sign-up steps.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { get, post, sessionCookie } from "./fixtures";
import { dobForAge, member } from "./members-support";
import { clockStopped } from "./clock";

const online = () => Math.floor(Date.now() / 1000) + 3600;
const withPhoto = async (id: string) => {
  const photo = `sg-${id}`;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO photos (id, user_id, width, height, review) VALUES (?1, ?2, 1, 1, 'approved')").bind(
      photo,
      id,
    ),
    env.DB.prepare("UPDATE profiles SET main_photo_id = ?2 WHERE user_id = ?1").bind(id, photo),
  ]);
};
const autoLike = async (cookie: string) =>
  ((await (await get("/api/auto-like.php", { cookie })).json()) as { profile: { id: string } | null }).profile;
const likesBadge = (html: string) => /data-badge="likes"><span aria-hidden="true">([^<]+)</.exec(html)?.[1] ?? null;

describe("the automatic like is a suggestion", () => {
  it(
    "shows under Suggestions with a plain Like, not under Received, raises no badge, and liking it makes no match",
    clockStopped(async () => {
      const me = await member({ gender: "male", country: "BE", dateOfBirth: dobForAge(36) });
      const cookie = await sessionCookie(me.id);
      const team = await member({
        name: "Suggested Saskia",
        gender: "female",
        country: "BE",
        dateOfBirth: dobForAge(35),
        fictional: true,
        lastSeenAt: online(),
      });
      expect((await autoLike(cookie))?.id).toBe(team.id);

      const received = await (await get("/likes/received", { cookie })).text();
      expect(received).not.toContain("Suggested Saskia");
      expect(likesBadge(received)).toBeNull();
      const suggestions = await (await get("/likes/suggestions", { cookie })).text();
      expect(suggestions).toContain("Suggested Saskia");
      expect(suggestions).toContain("They have not liked you");
      expect(suggestions).not.toContain("badge-new");
      expect(suggestions).not.toContain("Like back");
      expect(suggestions).toContain(`name="targetId" value="${team.id}"`);
      // An old automatic like still marked new (before this rule) is not counted either.
      await env.DB.prepare("UPDATE likes SET like_new = 1 WHERE liker_id = ?1").bind(team.id).run();
      expect(likesBadge(await (await get("/members", { cookie })).text())).toBeNull();
      // The profile says it is a suggestion, never "likes you".
      const profile = await (await get(`/likes/m/${team.id}`, { cookie })).text();
      expect(profile).toContain("A profile you may like");
      expect(profile).not.toContain("likes you.");

      // A suggestion can be liked: a plain like, not a match.
      expect((await post("/likes/suggestions", { targetId: team.id }, { cookie })).status).toBe(302);
      const sent = await (await get("/likes/sent", { cookie })).text();
      expect(sent).toContain("Suggested Saskia");
      const matches = await (await get("/likes/matches", { cookie })).text();
      expect(matches).not.toContain("Suggested Saskia");
      const after = await (await get(`/members/${team.id}`, { cookie })).text();
      expect(after).not.toContain("It&#x27;s a match");
      expect(after).not.toContain("It's a match");
    }),
  );

  it(
    "fits the member: the gender they look for, their country, around their age, nearest first",
    clockStopped(async () => {
      // A 36-year-old man in Amsterdam, looking for women.
      const me = await member({ gender: "male", country: "NL", dateOfBirth: dobForAge(36), lat: 52.37, lon: 4.9 });
      const cookie = await sessionCookie(me.id);
      const team = (o: Parameters<typeof member>[0]) =>
        member({ gender: "female", fictional: true, lastSeenAt: online(), ...o }).then(async (m) => {
          await withPhoto(m.id);
          return m;
        });
      // None of these fits: a 56-year-old in England, a 56-year-old in the Netherlands, a man, a woman elsewhere in Europe.
      const misfits = await Promise.all([
        team({ country: "GB", dateOfBirth: dobForAge(56), lat: 51.5, lon: -0.12 }),
        team({ country: "NL", dateOfBirth: dobForAge(56), lat: 52.37, lon: 4.9 }),
        team({ gender: "male", country: "NL", dateOfBirth: dobForAge(36), lat: 52.37, lon: 4.9 }),
        team({ country: "DE", dateOfBirth: dobForAge(36), lat: 52.52, lon: 13.4 }),
      ]);
      const far = await team({ country: "NL", dateOfBirth: dobForAge(38), lat: 50.85, lon: 5.69 });
      const near = await team({ country: "NL", dateOfBirth: dobForAge(33), lat: 52.38, lon: 4.64 });

      expect((await autoLike(cookie))?.id).toBe(near.id);
      // The next days (today's claim taken away): the next that fits, then none.
      const nextDay = () => env.DB.prepare("DELETE FROM counters WHERE key LIKE ?1").bind(`autolike:${me.id}:%`).run();
      await nextDay();
      expect((await autoLike(cookie))?.id).toBe(far.id);
      await nextDay();
      // Nothing else fits: no new suggestion (the newest one is answered again).
      expect((await autoLike(cookie))?.id).toBe(far.id);
      const { results } = await env.DB.prepare("SELECT liker_id FROM likes WHERE liked_id = ?1 AND source = 'auto'")
        .bind(me.id)
        .all<{ liker_id: string }>();
      expect(results.map((r) => r.liker_id).sort()).toEqual([near.id, far.id].sort());
      expect(misfits.map((m) => m.id)).not.toContain(results[0]!.liker_id);
    }),
  );
});

describe("the swipe deck and the sign-up steps use search's defaults", () => {
  it("offers the member's wanted gender around their age in their country, nearest first", async () => {
    const me = await member({ gender: "female", country: "AT", dateOfBirth: dobForAge(30), lat: 48.21, lon: 16.37 });
    const cookie = await sessionCookie(me.id);
    const man = (name: string, age: number, lat: number, lon: number) =>
      member({ name, gender: "male", country: "AT", dateOfBirth: dobForAge(age), lat, lon });
    await man("Deck Old Otto", 60, 48.21, 16.37);
    await man("Deck Far Fritz", 31, 47.27, 11.39);
    await man("Deck Near Niko", 29, 48.2, 16.3);
    await member({ name: "Deck Woman Wanda", gender: "female", country: "AT", dateOfBirth: dobForAge(30) });

    const swipe = await (await get("/swipe-game", { cookie })).text();
    expect(swipe).toContain("Deck Near Niko");

    for (const page of ["/complete-signup", "/signup-matches"]) {
      const html = await (await get(page, { cookie })).text();
      expect(html).not.toContain("waiting for a message");
      expect(html).toContain("Deck Near Niko");
      expect(html).toContain("Deck Far Fritz");
      expect(html.indexOf("Deck Near Niko")).toBeLessThan(html.indexOf("Deck Far Fritz"));
      expect(html).not.toContain("Deck Old Otto");
      expect(html).not.toContain("Deck Woman Wanda");
    }
  });
});
