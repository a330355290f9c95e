/**
 * Reporters and members get their DSA rights (decision 219): the reporter's outcome mail says what
 * was decided and offers redress; a reporter asks for a review of "no action", decided by another
 * moderator, which reopens the case; mails name out-of-court settlement and the courts; a reversed
 * decision no longer looks active; reversing one messaging restriction keeps another that still
 * runs; a server error on the decision form keeps what was typed.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createOperator, operatorCookie } from "./admin-support";
import { createMember, get, post } from "./fixtures";
import { decideAs, mailsTo, moderator, reportedCase } from "./moderation-support";

const appealId = async (caseId: string) =>
  (await env.DB.prepare("SELECT a.id FROM appeals a JOIN decisions d ON d.id = a.decision_id WHERE d.case_id = ?1")
    .bind(caseId)
    .first<string>("id"))!;

describe("redress for reporters and members", () => {
  it("the reporter hears what was decided, asks for a review of 'no action', and a second moderator reopens the case", async () => {
    const member = await createMember();
    const { caseId, reporter } = await reportedCase(member, "harassment");
    const first = await moderator();
    expect(
      (await decideAs(first, caseId, { action: "no_action", rule: "", facts: "Nothing against the terms here." }))
        .status,
    ).toBe(302);
    // The reporter is French (reportedCase): the decision, the review offer, Art. 21 and the courts.
    const mail = (await mailsTo(reporter.email)).at(-1)!;
    expect(mail.text).toContain("Notre décision : Nous n’avons pris aucune mesure.");
    expect(mail.text).toContain("article 21");
    expect(mail.text).toContain("tribunaux");
    const link = /\/report\/review\/[^\s)"]+/.exec(mail.text)![0];
    const page = await (await get(link)).text();
    expect(page).toContain("Demander le réexamen de notre décision");
    // A forged link is nothing.
    expect((await get(link.replace(/\.[^.]+$/, ".forged"))).status).toBe(404);
    expect((await post(link, { explanation: "short" })).status).toBe(200);
    expect((await post(link, { explanation: "He threatened me again, please look at the messages." })).status).toBe(
      302,
    );
    expect((await post(link, { explanation: "He threatened me again, please look at the messages." })).status).toBe(
      200,
    );
    const id = await appealId(caseId);
    // The moderator who decided cannot decide the review; another one reverses it: the case is open again.
    expect(
      (
        await post(
          `/admin/appeals/${id}`,
          { outcome: "reversed", reasons: "Read again, the threats are clear." },
          { cookie: first },
        )
      ).status,
    ).not.toBe(302);
    const second = await operatorCookie((await createOperator("moderator")).id);
    expect(
      (
        await post(
          `/admin/appeals/${id}`,
          { outcome: "reversed", reasons: "Read again, the threats are clear." },
          { cookie: second },
        )
      ).status,
    ).toBe(302);
    expect(await env.DB.prepare("SELECT status FROM moderation_cases WHERE id = ?1").bind(caseId).first("status")).toBe(
      "open",
    );
    const outcome = (await mailsTo(reporter.email)).at(-1)!;
    expect(outcome.text).toContain("rouvert le dossier");
    expect((await get(link)).status).toBe(200);
  });

  it("the member's statement names out-of-court dispute settlement and the courts; the case shows the member's language", async () => {
    const member = await createMember({ language: "de" });
    const { caseId } = await reportedCase(member, "spam");
    const cookie = await moderator();
    const page = await (await get(`/admin/reports/${caseId}`, { cookie })).text();
    expect(page).toContain("language <strong>Deutsch</strong>");
    await decideAs(cookie, caseId, {
      action: "remove_profile_text",
      rule: "commercial",
      facts: "Werbung für eine andere Seite.",
    });
    const mail = (await mailsTo(member.email)).at(-1)!;
    expect(mail.text).toContain("außergerichtliche Streitbeilegungsstelle (Artikel 21");
  });

  it("reversing one messaging restriction keeps another that still runs; the reversed one no longer looks active", async () => {
    const member = await createMember();
    const cookie = await moderator();
    const short = (await reportedCase(member, "harassment")).caseId;
    await decideAs(cookie, short, {
      action: "restrict_messaging",
      days: "2",
      rule: "conduct",
      facts: "Insults to a member.",
    });
    const long = (await reportedCase(member, "spam")).caseId;
    await decideAs(cookie, long, {
      action: "restrict_messaging",
      days: "10",
      rule: "commercial",
      facts: "Advertising in messages.",
    });
    const longEnd = (await env.DB.prepare("SELECT ends_at FROM decisions WHERE case_id = ?1")
      .bind(long)
      .first<number>("ends_at"))!;
    // The member appeals the short one from its statement; another moderator reverses it.
    const link = /\/statement\/[^\s)"]+/.exec(
      (await mailsTo(member.email)).find((m) => m.text.includes("Insults to a member."))!.text,
    )![0];
    expect((await post(link, { explanation: "It was a joke between friends, please look again." })).status).toBe(302);
    const second = await operatorCookie((await createOperator("moderator")).id);
    expect(
      (
        await post(
          `/admin/appeals/${await appealId(short)}`,
          { outcome: "reversed", reasons: "A joke between friends." },
          { cookie: second },
        )
      ).status,
    ).toBe(302);
    expect(
      await env.DB.prepare("SELECT messaging_restricted_until AS u FROM users WHERE id = ?1")
        .bind(member.id)
        .first("u"),
    ).toBe(longEnd);
    const casePage = await (await get(`/admin/reports/${short}`, { cookie })).text();
    expect(casePage).toContain("reversed on appeal");
    const support = await operatorCookie((await createOperator("support")).id);
    expect(await (await get(`/admin/members/${member.id}`, { cookie: support })).text()).toContain(
      "reversed on appeal",
    );
  });

  it("a server error on the decision form keeps what the moderator typed", async () => {
    const member = await createMember();
    const { caseId } = await reportedCase(member, "harassment");
    await env.DB.prepare("ALTER TABLE sessions RENAME TO sessions_gone").run();
    try {
      const res = await decideAs(await moderator(), caseId, {
        action: "suspend",
        days: "3",
        rule: "conduct",
        facts: "Threats in three messages on Monday.",
        publicFacts: "Threats sent to another member.",
      });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain("could not be saved");
      expect(html).toContain("Threats in three messages on Monday.");
      expect(html).toContain("Threats sent to another member.");
    } finally {
      await env.DB.prepare("ALTER TABLE sessions_gone RENAME TO sessions").run();
    }
    expect(await env.DB.prepare("SELECT status FROM moderation_cases WHERE id = ?1").bind(caseId).first("status")).toBe(
      "open",
    );
  });
});
