/** The swipe quota (decision 053): the swipe quota counts likes given today, not likes still standing. */
import { describe, expect, it } from "vitest";
import { post, sessionCookie } from "./fixtures";
import { member } from "./members-support";
import { clockStopped } from "./clock";

describe("swipe quota", () => {
  it(
    "unliking the day's 4 members does not allow 4 more swipe likes",
    clockStopped(async () => {
      const me = await member({ gender: "male", country: "SE" });
      const cookie = await sessionCookie(me.id);
      const first = await Promise.all(Array.from({ length: 4 }, () => member({ country: "SE" })));
      for (const t of first)
        expect((await post("/swipe-game", { intent: "like", targetId: t.id }, { cookie })).status).toBe(302);
      for (const t of first) await post(`/members/${t.id}`, { intent: "unlike" }, { cookie });
      const more = await member({ country: "SE" });
      const res = await post("/swipe-game", { intent: "like", targetId: more.id }, { cookie });
      expect(res.status).toBe(429);
      expect(await res.text()).toContain("You can give out 4 Likes per day");
    }),
  );
});
