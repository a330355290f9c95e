import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { get, post, sessionCookie } from "./fixtures";
import { blockRow, member } from "./members-support";
import { clockStopped } from "./clock";

const swipe = (cookie: string, intent: "like" | "pass", targetId: string) =>
  post("/swipe-game", { intent, targetId }, { cookie });
const swipeLikes = (id: string) =>
  env.DB.prepare("SELECT COUNT(*) AS n FROM likes WHERE liker_id = ?1 AND source = 'swipe'")
    .bind(id)
    .first<number>("n");

describe("swipe game", () => {
  it(
    "stores exactly 4 likes a day when 10 arrive at once",
    clockStopped(async () => {
      const me = await member({ gender: "male", country: "FI" });
      const cookie = await sessionCookie(me.id);
      const targets = await Promise.all(Array.from({ length: 10 }, () => member({ country: "FI" })));
      const answers = await Promise.all(targets.map((t) => swipe(cookie, "like", t.id)));
      expect(await swipeLikes(me.id)).toBe(4);
      expect(answers.filter((r) => r.status === 302)).toHaveLength(4);
      const refused = answers.find((r) => r.status === 429)!;
      expect(await refused.text()).toContain("You can give out 4 Likes per day");
    }),
  );

  it("does not count yesterday's likes or likes from profiles", async () => {
    const me = await member({ gender: "male", country: "FI" });
    const cookie = await sessionCookie(me.id);
    const old = await Promise.all(Array.from({ length: 4 }, () => member({ country: "FI" })));
    const yesterday = Math.floor(Date.now() / 1000) - 86_400 * 2;
    await env.DB.batch(
      old.map((o) =>
        env.DB.prepare("INSERT INTO likes (liker_id, liked_id, source, created_at) VALUES (?1, ?2, 'swipe', ?3)").bind(
          me.id,
          o.id,
          yesterday,
        ),
      ),
    );
    const viaProfile = await member({ country: "FI" });
    await post(`/members/${viaProfile.id}`, { intent: "like" }, { cookie });
    const next = await member({ country: "FI" });
    expect((await swipe(cookie, "like", next.id)).status).toBe(302);
  });

  it("shows a card of the wanted gender, not yet liked, passed, or blocking; pass moves on", async () => {
    const me = await member({ gender: "male", country: "DK" });
    const cookie = await sessionCookie(me.id);
    const she = await member({ name: "Swipe Sofie", country: "DK" });
    await member({ name: "Swipe Sven", gender: "male", country: "DK" });
    const blocker = await member({ name: "Swipe Blocker", country: "DK" });
    await blockRow(blocker.id, me.id);
    const page = await (await get("/swipe-game", { cookie })).text();
    expect(page).toContain("Swipe Sofie");
    expect(page).toContain('value="like"');
    expect(page).toContain("4 likes left today");
    await swipe(cookie, "pass", she.id);
    const after = await (await get("/swipe-game", { cookie })).text();
    expect(after).not.toContain("Swipe Sofie");
    expect(after).not.toContain("Swipe Sven");
    expect(after).not.toContain("Swipe Blocker");
  });

  it("needs a login", async () => {
    expect((await get("/swipe-game")).headers.get("Location")).toMatch(/^\/login/);
  });
});
