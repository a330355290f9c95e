/**
 * Run first by `npm test`: the end-to-end tests need a Chromium. Debian's (scripts/browser.mjs) or
 * Playwright's own will do; without either, Playwright's is installed where the machine can download
 * it, and otherwise the run stops at once with one line saying what to install (instead of minutes
 * of unit and worker tests followed by every end-to-end test failing).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";
import { debianBrowser } from "./browser.mjs";

function works(path) {
  if (!path || !existsSync(path)) return false;
  const run = spawnSync(path, ["--headless", "--no-sandbox", "--version"], { encoding: "utf8", timeout: 60_000 });
  return run.status === 0;
}

const playwrights = () => {
  try {
    return chromium.executablePath();
  } catch {
    return null;
  }
};

if (works(debianBrowser()) || works(playwrights())) process.exit(0);

console.error("No Chromium found: installing Playwright's (npx playwright install chromium) …");
const install = spawnSync("npx", ["playwright", "install", "chromium"], {
  stdio: ["ignore", "ignore", "ignore"],
  timeout: 600_000,
});
if (install.status === 0 && works(playwrights())) process.exit(0);

console.error(
  "npm test needs Chromium for the end-to-end tests: install Debian's (sudo apt-get install chromium-headless-shell) or Playwright's (npx playwright install --with-deps chromium), then run npm test again.",
);
process.exit(1);
