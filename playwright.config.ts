import { availableParallelism } from "node:os";
import { defineConfig, devices } from "@playwright/test";
import { debianBrowser, fullBrowser } from "./scripts/browser.mjs";

const port = Number(process.env.E2E_PORT ?? 8788);
const launchOptions = {
  // Debian's headless shell or Chromium where present; Playwright's own browser elsewhere.
  executablePath: debianBrowser(),
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    // *.localhost brands resolve to this machine.
    "--host-resolver-rules=MAP *.localhost 127.0.0.1",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  // Every core, at least two, with or without CI (Playwright's default, half the cores, is one worker
  // on two: a fresh clone's `npm test` ran the journeys one at a time). A test waits on the server and
  // the browser much of its time, so two share two cores well (decision 233).
  workers: Math.max(2, availableParallelism()),
  // None: a test that passes on its second try is a flake to fix, not a pass (decision 204).
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  // Generous on purpose: a loaded 2-core machine (a fresh clone's first run, CI beside other work) is
  // slow, and a wait that only ever ends in a pass costs nothing on a quiet one (docs/conventions.md, Tests).
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    // Off: recording every test's trace cost a third of the suite's CPU (decision 243), and CI shows only
    // the output. To look into a failure: `npx playwright test <spec> --trace retain-on-failure`.
    trace: "off",
    launchOptions,
  },
  projects: [
    { name: "chromium", grepInvert: /@full-browser/, use: { ...devices["Desktop Chrome"], launchOptions } },
    // Tests about asking for push: the headless shell denies the permission outright (scripts/browser.mjs).
    {
      name: "full-browser",
      grep: /@full-browser/,
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: { ...launchOptions, executablePath: fullBrowser() },
        ...(fullBrowser() ? {} : { channel: "chromium" }),
      },
    },
  ],
  webServer: {
    // A separate local state so tests never touch the developer's demo database.
    command: `bash tests/e2e/server.sh ${port}`,
    url: `http://localhost:${port}/`,
    // scripts/test.mjs starts the server early, beside the worker suites, and says so (decision 220).
    reuseExistingServer: !process.env.CI || process.env.E2E_SERVER_STARTED === "1",
    timeout: 300_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
