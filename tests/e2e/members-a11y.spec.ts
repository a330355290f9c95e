import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { openE2eDb } from "./support/db";
import { login } from "./support/login";

// The screens members spend their time on, checked like the landing and static pages: no serious or
// critical accessibility violations.
test("member screens have no serious accessibility violations", async ({ page, context }) => {
  await context.addCookies([{ name: "entry_ok", value: "1", domain: "localhost", path: "/" }]);
  const db = await openE2eDb();
  const me = await db.createMember({ gender: "male", paidUser: true, credits: 20 });
  const other = await db.createMember({ name: "Axe Partner" });
  await login(page, me.email, me.password);
  const found: string[] = [];
  for (const path of ["/members", `/members/${other.id}`, "/likes", "/chats", `/members/${other.id}/chat`, "/profile", "/settings", "/swipe-game", "/match-finder", "/credits"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    const { violations } = await new AxeBuilder({ page }).analyze();
    for (const v of violations.filter((v) => v.impact === "serious" || v.impact === "critical")) {
      found.push(`${path}: ${v.id} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
    }
  }
  expect(found).toEqual([]);
});
