/** Helpers for the moderation worker tests: a reported case, a decision posted in the console, mails. */
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { createMember, post, sessionCookie } from "./fixtures";
import { createOperator, operatorCookie } from "./admin-support";

/** A member (French) reports `target`; returns the open case. */
export async function reportedCase(
  target: { id: string },
  category = "harassment",
  targetParam = `member=${target.id}`,
) {
  const reporter = await createMember({ language: "fr" });
  const res = await post(
    `/report?${targetParam}`,
    { category, explanation: "Rude and threatening messages" },
    { cookie: await sessionCookie(reporter.id) },
  );
  expect(res.status).toBe(302);
  const c = await env.DB.prepare("SELECT id FROM moderation_cases WHERE member_id = ?1 AND status = 'open'")
    .bind(target.id)
    .first<{ id: string }>();
  return { caseId: c!.id, reporter };
}
export const moderator = async () => operatorCookie((await createOperator("moderator")).id);
/** Illegal-content rules need a legal provision (decision 205): a fitting one unless the test names its own. */
const PROVISION: Record<string, string> = { age: "csam", consent: "ncii", illegal: "hatred" };
/** Posts the decision form; public facts and the provision are filled in unless given. */
export const decideAs = (cookie: string, caseId: string, form: Record<string, string>) =>
  post(
    `/admin/reports/${caseId}`,
    {
      intent: "decide",
      publicFacts: "Content in breach of the terms was reviewed by a moderator.",
      legalGround: PROVISION[form.rule ?? ""] ?? "",
      ...form,
    },
    { cookie },
  );
export const mailsTo = (to: string) =>
  env.DB.prepare('SELECT subject, text FROM mail_outbox WHERE "to" = ?1 ORDER BY id')
    .bind(to)
    .all<{ subject: string; text: string }>()
    .then((r) => r.results);
