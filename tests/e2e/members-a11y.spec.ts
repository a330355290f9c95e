import { AxeBuilder } from "@axe-core/playwright";
import { expect, logIn, test } from "./support/fixtures";

// The screens members spend their time on, checked like the landing and static pages: no serious or
// critical accessibility violations.
const SCREENS = [
  "/members",
  "/members/{other}",
  "/likes",
  "/chats",
  "/members/{other}/chat",
  "/profile",
  "/settings",
  "/swipe-game",
  "/match-finder",
  "/credits",
];

for (const screen of SCREENS) {
  test(`${screen} has no serious accessibility violations`, async ({ page, context, db }) => {
    await context.addCookies([{ name: "entry_ok", value: "1", domain: "localhost", path: "/" }]);
    const me = await db.createMember({ gender: "male", paidUser: true, credits: 20 });
    const other = await db.createMember({ name: "Axe Partner" });
    await logIn(page, me);
    await page.goto(screen.replace("{other}", other.id));
    await page.waitForLoadState("networkidle");
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v) =>
          `${v.id} (${v.nodes
            .map((n) => n.target.join(" "))
            .slice(0, 3)
            .join(", ")})`,
      );
    expect(serious).toEqual([]);
  });
}
