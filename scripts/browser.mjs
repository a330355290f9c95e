/**
 * The Chromium the end-to-end tests drive, chosen once for playwright.config.ts and check-browser.mjs.
 * Debian's headless shell first (package chromium-headless-shell): the same engine without the
 * browser's windowing layers, which Playwright itself uses for headless runs. It spends a third of the
 * CPU of the full browser in headless mode per page (decision 240), which on two cores is most of the
 * end-to-end suite's time. Then Debian's full Chromium; otherwise Playwright's own download.
 */
import { existsSync } from "node:fs";

export const DEBIAN_BROWSERS = ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium"];

/** The first Debian Chromium present, or undefined (Playwright's own browser). */
export const debianBrowser = () => DEBIAN_BROWSERS.find((path) => existsSync(path));
