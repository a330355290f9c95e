import type { Locator, Page } from "@playwright/test";

/** Drags a card 160 px to the right with the mouse, in steps, as a finger would swipe it. */
export async function dragRight(page: Page, card: Locator) {
  const box = (await card.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 3);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 3, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 + 160, box.y + box.height / 3, { steps: 4 });
  await page.mouse.up();
}
