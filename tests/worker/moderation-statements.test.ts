/**
 * Statements of reasons in the member's account and on the ban page (decision 173): the
 * account lists only the member's own decisions, in their language; the ban page shows a banned
 * member's statement with the appeal link and nothing else, never someone else's.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hashPassword } from "../../app/lib/password";
import { statementToken } from "../../app/models/moderation.server";
import { createMember, get, post, sessionCookie } from "./fixtures";
import { decideAs, moderator, reportedCase } from "./moderation-support";

const PASSWORD = "Member-pass-2026";
const decided = async (target: { id: string }, form: Record<string, string>) => {
  const { caseId } = await reportedCase(target, "harassment");
  expect((await decideAs(await moderator(), caseId, form)).status).toBe(302);
  return (await env.DB.prepare("SELECT id FROM decisions WHERE case_id = ?1").bind(caseId).first<string>("id"))!;
};

describe("statements in the account", () => {
  it("lists every decision about the member with its statement in their language, only theirs, no 'no action'", async () => {
    const me = await createMember({ language: "fr" });
    const other = await createMember({ language: "de" });
    await decided(me, {
      action: "remove_profile_text",
      rule: "commercial",
      facts: "Le texte proposait des rendez-vous payants.",
    });
    await decided(me, {
      action: "restrict_messaging",
      days: "5",
      rule: "conduct",
      facts: "Insultes envoyées à deux membres.",
    });
    await decided(me, { action: "no_action", rule: "", facts: "Rien à signaler dans ce profil." });
    await decided(other, { action: "suspend", days: "3", rule: "fraud", facts: "Secret facts about someone else." });
    const cookie = await sessionCookie(me.id);
    const page = await (await get("/settings/statements", { cookie })).text();
    expect(page).toContain("Décisions concernant votre compte");
    expect(page).toContain("Nous avons restreint vos messages jusqu");
    expect(page).toContain("Insultes envoyées à deux membres.");
    expect(page).toContain("Nous avons supprimé le texte de votre profil.");
    expect(page).toContain("Le texte proposait des rendez-vous payants.");
    // Newest first, each with the rule linked, who decided, and the way to appeal.
    expect(page.indexOf("Insultes")).toBeLessThan(page.indexOf("Le texte proposait"));
    expect(page).toContain('href="/pages/terms"');
    expect(page).toContain("Comportement respectueux");
    expect(page).toContain("Aucun moyen automatisé");
    expect(page.match(/>Faire appel de cette décision</g)).toHaveLength(2);
    expect(page).not.toContain("Rien à signaler");
    expect(page).not.toContain("Secret facts");
    // The settings page links to it.
    expect(await (await get("/settings", { cookie })).text()).toContain('href="/settings/statements"');
    // A member without decisions, and a visitor.
    const clean = await (await get("/settings/statements", { cookie: await sessionCookie(other.id) })).text();
    expect(clean).toContain("Secret facts");
    expect(clean).not.toContain("Insultes");
    const none = await (
      await get("/settings/statements", { cookie: await sessionCookie((await createMember()).id) })
    ).text();
    expect(none).toContain("There are no decisions about your account.");
    expect((await get("/settings/statements")).headers.get("Location")).toMatch(/^\/login/);
  });
});

describe("the ban page", () => {
  it("a banned member's login lands on the ban page: the reason and the appeal link, in their language, no menus", async () => {
    const banned = await createMember({ language: "nl" });
    await env.DB.prepare("UPDATE users SET password_hash = ?2 WHERE id = ?1")
      .bind(banned.id, await hashPassword(PASSWORD, env.PASSWORD_PEPPER))
      .run();
    const decisionId = await decided(banned, {
      action: "ban",
      rule: "fraud",
      facts: "Vroeg drie leden om geld via cadeaukaarten.",
    });
    const login = await post("/login", { email: banned.email, password: PASSWORD });
    const to = login.headers.get("Location")!;
    expect(to).toMatch(/^\/pages\/ban\?statement=/);
    const page = await (await get(to)).text();
    expect(page).toContain("We hebben je account definitief gesloten.");
    expect(page).toContain("Vroeg drie leden om geld via cadeaukaarten.");
    expect(page).toContain(
      `href="/statement/${encodeURIComponent(await statementToken(env.SESSION_SECRET, decisionId))}"`,
    );
    expect(page).toContain('name="robots" content="noindex"');
    // Nothing else of the site: the empty layout (no top bar, no footer with its links).
    expect(page).toContain("layout-empty");
    expect(page).not.toContain('href="/members"');
    expect(page).not.toContain('href="/pages/privacy"');
    // The mailed link keeps working.
    expect(
      (await get(`/statement/${encodeURIComponent(await statementToken(env.SESSION_SECRET, decisionId))}`)).status,
    ).toBe(200);
  });

  it("shows nothing of a tampered token, of a decision that is not a ban, or of another member's ban to a logged-in member", async () => {
    const banned = await createMember();
    const banId = await decided(banned, { action: "ban", rule: "fraud", facts: "Banned for a scam with gift cards." });
    const restricted = await createMember();
    const restrictId = await decided(restricted, {
      action: "restrict_messaging",
      days: "2",
      rule: "conduct",
      facts: "Restricted for insults here.",
    });
    const banToken = encodeURIComponent(await statementToken(env.SESSION_SECRET, banId));
    const show = async (token: string, cookie?: string) =>
      (await get(`/pages/ban?statement=${token}`, { cookie })).text();
    expect(await show(banToken)).toContain("Banned for a scam");
    expect(await show(`${banToken.slice(0, -3)}abc`)).not.toContain("Banned for a scam");
    expect(await show(encodeURIComponent(`${banId}.forged`))).not.toContain("Banned for a scam");
    expect(await show(encodeURIComponent(await statementToken(env.SESSION_SECRET, restrictId)))).not.toContain(
      "Restricted for insults",
    );
    // Another member, logged in, with the banned member's token: refused (the page without any statement).
    const someone = await sessionCookie((await createMember()).id);
    const refused = await show(banToken, someone);
    expect(refused).not.toContain("Banned for a scam");
    expect(refused).toContain("Who is refused");
  });
});
