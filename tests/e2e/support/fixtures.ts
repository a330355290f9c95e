/**
 * The end-to-end tests' fixtures: import `test` and `expect` from here instead of "@playwright/test".
 *
 *   test("…", async ({ db, member, loginAs }) => {
 *     const page = await loginAs(member);                  // a new context, JavaScript on, logged in
 *     const other = await loginAs(await db.createMember(), { js: false, viewport: PHONE });
 *   });
 *
 * Logging in by cookie: the session row is written into the e2e server's D1 (through /dev/sql, which
 * answers only under ENVIRONMENT=test) and its id signed with the development SESSION_SECRET of
 * .dev.vars, exactly as createSession does. Nothing in the Worker can mint a session; a production
 * secret never signs one. The login form itself is tested through the form (accounts, admin specs, and
 * `loginByForm` in support/login.ts).
 */
import { readFileSync } from "node:fs";
import {
  test as base,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from "@playwright/test";
import { createCookie } from "@remix-run/cloudflare";
import { randomId, sha256 } from "../../../app/lib/password.ts";
import { E2E_PORT, e2eDb, type E2eDb } from "./db";

export { expect } from "@playwright/test";

const DAY = 86_400;

/** The development SESSION_SECRET the e2e server signs with (tests/e2e/server.sh writes .dev.vars first). */
function devSessionSecret(): string {
  const vars = readFileSync(new URL("../../../.dev.vars", import.meta.url), "utf8");
  const secret = /^SESSION_SECRET=(.*)$/m.exec(vars)?.[1]?.trim();
  if (!secret) throw new Error(".dev.vars has no SESSION_SECRET: run node scripts/dev-vars.mjs");
  return secret;
}

/** A signed cookie's value as the server would set it (Remix's signing, the same secret). */
async function signed(name: string, value: string): Promise<string> {
  const header = await createCookie(name, { secrets: [devSessionSecret()] }).serialize(value);
  return header.slice(name.length + 1).split(";")[0]!;
}

const hostOf = (origin: string) => new URL(origin || `http://localhost:${E2E_PORT}`).hostname;

/**
 * Logs a member in on a page's (or context's) browser context by cookie; `origin` for another brand's
 * host. The member's language cookie is set as the login form sets it. The page stays where it is: go
 * to the page the test is about.
 */
export async function logIn(target: Page | BrowserContext, who: { id: string }, origin = "") {
  const context = "context" in target ? target.context() : target;
  const db = e2eDb();
  const sid = randomId(32);
  const [, language] = (await db.DB.batch([
    db.DB.prepare(
      `INSERT INTO sessions (id_hash, user_id, created_at, expires_at, user_agent)
       VALUES (?1, ?2, unixepoch(), unixepoch() + ?3, 'e2e fixture')`,
    ).bind(await sha256(sid), who.id, 30 * DAY),
    db.DB.prepare("SELECT language FROM users WHERE id = ?1").bind(who.id),
  ])) as unknown as [unknown, { results: { language: string }[] }];
  const domain = hostOf(origin);
  const cookie = { domain, path: "/", httpOnly: true, secure: true, sameSite: "Lax" as const };
  await context.addCookies([
    { ...cookie, name: "sid", value: await signed("sid", sid) },
    ...language.results.map((r) => ({ ...cookie, httpOnly: false, name: "lng", value: r.language })),
  ]);
}

/**
 * Drops the context's cookies after leaving the page: a member's page left open would meet the cleared
 * session in its scripts (the counts' re-fetch, the auto-like call) and go home, aborting the next load.
 */
export async function clearSession(page: Page) {
  await page.goto("about:blank");
  await page.context().clearCookies();
}

/** Logs a seeded operator (docs/development.md: operator@example.com, moderator@example.com) into the console by cookie. */
export async function operatorLogIn(context: BrowserContext, email: string) {
  const db = e2eDb();
  const sid = randomId(32);
  const row = await db.DB.prepare(
    `INSERT INTO operator_sessions (id_hash, operator_id, created_at, expires_at, user_agent)
     SELECT ?1, id, unixepoch(), unixepoch() + 3600, 'e2e fixture' FROM operators WHERE email = ?2
     RETURNING operator_id`,
  )
    .bind(await sha256(sid), email)
    .first();
  if (!row) throw new Error(`no operator ${email}`);
  await context.addCookies([
    {
      domain: hostOf(""),
      path: "/admin",
      httpOnly: true,
      secure: true,
      sameSite: "Lax",
      name: "op_sid",
      value: await signed("op_sid", sid),
    },
  ]);
}

/** A console page for a seeded operator, JavaScript off (the console works without it). */
export async function operatorPage(browser: Browser, email: string) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await operatorLogIn(context, email);
  return context.newPage();
}

export type LoginOptions = BrowserContextOptions & {
  /** JavaScript on (default) or off. */
  js?: boolean;
  /** Another brand's origin (http://<brand>.localhost:<port>). */
  origin?: string;
};
type Member = Awaited<ReturnType<E2eDb["createMember"]>>;

export const test = base.extend<
  {
    /** A fresh confirmed member (support/db.ts defaults), not logged in anywhere yet. */
    member: Member;
    /** A new browser context logged in as `who`; closed after the test. */
    loginAs: (who: { id: string }, options?: LoginOptions) => Promise<Page>;
  },
  { db: E2eDb }
>({
  // oxlint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  db: [async ({}, provide) => provide(e2eDb()), { scope: "worker" }],
  member: async ({ db }, provide) => provide(await db.createMember()),
  loginAs: async ({ browser }, provide) => {
    const contexts: BrowserContext[] = [];
    await provide(async (who, { js = true, origin = "", ...options } = {}) => {
      const context = await browser.newContext({ ...options, javaScriptEnabled: js });
      contexts.push(context);
      await logIn(context, who, origin);
      return context.newPage();
    });
    await Promise.all(contexts.map((c) => c.close().catch(() => {})));
  },
});
