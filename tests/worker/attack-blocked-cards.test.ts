/**
 * Blocks (docs/architecture/security.md §5): a member blocked by another must not see the blocker's card anywhere. Every way
 * of showing a member goes through the profile page's access check.
 */
import { describe, expect, it } from "vitest";
import { get, sessionCookie } from "./fixtures";
import { blockRow, member } from "./members-support";

describe("blocked members see no card of the blocker", () => {
  it("on the member landings and the member sign-up page", async () => {
    const blocker = await member({ name: "Blockerina" });
    const blocked = await member({ name: "Pest" });
    await blockRow(blocker.id, blocked.id);
    const cookie = await sessionCookie(blocked.id);
    for (const path of ["landing", "landing2", "landing3", "signup"]) {
      const res = await get(`/members/${blocker.id}/${path}`, { cookie });
      expect(res.status, path).toBe(403);
      expect(await res.text()).not.toContain("Blockerina");
      // Anyone else (and visitors) still see the card.
      const visitor = await get(`/members/${blocker.id}/${path}`);
      expect(visitor.status, path).toBe(200);
      expect(await visitor.text()).toContain("Blockerina");
    }
  });
});
