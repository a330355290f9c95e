/**
 * The Chromium the end-to-end tests drive, chosen once for playwright.config.ts and check-browser.mjs.
 * Debian's headless shell first (package chromium-headless-shell): the same engine without the
 * browser's windowing layers, which Playwright itself uses for headless runs. It spends about a third
 * of the full browser's CPU per page (decision 240), which on two cores is most of the end-to-end
 * suite's time. Then Debian's full Chromium; otherwise Playwright's own download.
 *
 * The shell denies every permission prompt outright (`Notification.permission` is "denied"), so the
 * few tests about asking for push (tagged @full-browser) run in the full browser, where a new visitor's
 * permission is "default" as on a phone.
 */
import { existsSync } from "node:fs";

export const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";
export const FULL_CHROMIUM = "/usr/bin/chromium";

/** The first Debian Chromium present, or undefined (Playwright's own browser). */
export const debianBrowser = () => [HEADLESS_SHELL, FULL_CHROMIUM].find((path) => existsSync(path));

/** Debian's full browser, or undefined: Playwright's own in its full-browser mode (the "chromium" channel). */
export const fullBrowser = () => (existsSync(FULL_CHROMIUM) ? FULL_CHROMIUM : undefined);
