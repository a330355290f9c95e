/**
 * Statements the EU DSA Transparency Database accepts (decision 205): every exported statement
 * passes the database's own validation rules (app/models/dsa-database.ts, from its API's request
 * rules); the scope lists EU/EEA states only; illegal content names a legal provision chosen from
 * the list; the public facts are written apart from the member's text, the console warning on
 * personal data in them and keeping what was typed.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { EEA_COUNTRIES, dsaErrors } from "../../app/models/dsa-database";
import { createOperator, operatorCookie } from "./admin-support";
import { createMember, photoRow, post } from "./fixtures";
import { decideAs, moderator, reportedCase } from "./moderation-support";

const exportMonth = async (month: string) => {
  const cookie = await operatorCookie((await createOperator("moderator")).id);
  const res = await post("/admin/transparency/export", { month }, { cookie });
  expect(res.status).toBe(200);
  return ((await res.json()) as { statements: Record<string, unknown>[] }).statements;
};

describe("statements for the Transparency Database", () => {
  it("every exported statement passes the database's validation: EU/EEA scope, a legal provision, public facts", async () => {
    const member = await createMember({ language: "de", name: "Anna Beispiel" });
    await env.DB.prepare("UPDATE brands SET countries = ?1 WHERE id = 1")
      .bind(JSON.stringify(["DE", "AT", "CH", "GB", "US", "NO"]))
      .run();
    const cookie = await moderator();
    const { caseId } = await reportedCase(member, "harassment");
    expect(
      (
        await decideAs(cookie, caseId, {
          action: "suspend",
          days: "7",
          rule: "conduct",
          facts: "You sent threats to Bernd Muster (bernd@example.com) on 20 November.",
          publicFacts: "Threats sent to another member in private messages.",
        })
      ).status,
    ).toBe(302);
    const photoId = `ph-${crypto.randomUUID()}`;
    await photoRow(member.id, photoId).run();
    const photoCase = (await reportedCase(member, "ncii", `photo=${photoId}`)).caseId;
    expect(
      (
        await decideAs(cookie, photoCase, {
          action: "remove_photo",
          rule: "consent",
          legalGround: "ncii",
          facts: "The photo shows Bernd Muster without his consent.",
          publicFacts: "An intimate image of a third person shared without consent.",
        })
      ).status,
    ).toBe(302);
    // A decision taken before public facts and provisions existed (the member's text only).
    const old = await reportedCase(member, "minor");
    await env.DB.prepare(
      `INSERT INTO decisions (id, case_id, member_id, operator_id, action, rule, facts, created_at)
       VALUES (?1, ?2, ?3, 'op-old', 'ban', 'age', 'You told Bernd Muster you are 15.', unixepoch())`,
    )
      .bind(`d-old-${crypto.randomUUID()}`, old.caseId, member.id)
      .run();
    const at = (await env.DB.prepare("SELECT max(created_at) AS at FROM decisions WHERE member_id = ?1")
      .bind(member.id)
      .first<number>("at"))!;
    const statements = await exportMonth(new Date(at * 1000).toISOString().slice(0, 7));
    const mine = statements.filter((s) =>
      ["Threats sent", "An intimate image", "The account was terminated"].some((p) =>
        String(s.decision_facts).startsWith(p),
      ),
    );
    expect(mine).toHaveLength(3);
    for (const s of statements) expect(dsaErrors(s)).toEqual([]);
    for (const s of mine) expect(s.territorial_scope).toEqual(["DE", "AT", "NO"]);
    // Found by their facts, not their place: decisions made within one second export in any order.
    const byFacts = (prefix: string) => mine.find((s) => String(s.decision_facts).startsWith(prefix));
    const [suspension, photo, ban] = ["Threats sent", "An intimate image", "The account was terminated"].map(byFacts);
    expect(suspension).toMatchObject({
      decision_ground: "DECISION_GROUND_INCOMPATIBLE_CONTENT",
      incompatible_content_explanation: "Threats sent to another member in private messages.",
    });
    expect(photo).toMatchObject({
      decision_ground: "DECISION_GROUND_ILLEGAL_CONTENT",
      illegal_content_legal_ground: expect.stringMatching(/^Directive \(EU\) 2024\/1385, Art\. 5/),
    });
    // Without a provision, an illegal-ground decision is published on its terms ground, marked illegal.
    expect(ban).toMatchObject({
      decision_ground: "DECISION_GROUND_INCOMPATIBLE_CONTENT",
      incompatible_content_illegal: "Yes",
    });
    // No personal data of the member's statement reaches the public database.
    const text = JSON.stringify(statements);
    for (const personal of ["Bernd", "bernd@example.com", "Anna Beispiel", member.email])
      expect(text).not.toContain(personal);
  });

  it("the validation refuses what the database refuses", () => {
    const good = {
      puid: "d-1",
      decision_visibility: ["DECISION_VISIBILITY_CONTENT_REMOVED"],
      decision_ground: "DECISION_GROUND_ILLEGAL_CONTENT",
      illegal_content_legal_ground: "Directive (EU) 2024/1385, Art. 5",
      illegal_content_explanation: "An intimate image shared without consent.",
      category: "STATEMENT_CATEGORY_CYBER_VIOLENCE",
      content_type: ["CONTENT_TYPE_IMAGE"],
      content_date: "2026-11-01",
      application_date: "2026-11-02",
      decision_facts: "An intimate image shared without consent.",
      source_type: "SOURCE_ARTICLE_16",
      automated_detection: "No",
      automated_decision: "AUTOMATED_DECISION_NOT_AUTOMATED",
      territorial_scope: [...EEA_COUNTRIES],
    };
    expect(dsaErrors(good)).toEqual([]);
    // What the export sent before: a scope with non-EEA states, categories the database does not know.
    expect(dsaErrors({ ...good, territorial_scope: ["DE", "CH", "GB"] })).toEqual([
      "territorial_scope: not an allowed value",
    ]);
    expect(dsaErrors({ ...good, category: "STATEMENT_CATEGORY_NON_CONSENSUAL_BEHAVIOUR" })).toHaveLength(1);
    expect(dsaErrors({ ...good, illegal_content_legal_ground: null })).toEqual([
      "illegal_content_legal_ground: required",
    ]);
    expect(dsaErrors({ ...good, decision_visibility: null })).toEqual([
      "decision_visibility: one restriction is required",
    ]);
    expect(dsaErrors({ ...good, puid: "d 1/x", content_date: "01.11.2026" })).toHaveLength(2);
  });

  it("the console asks for the provision of illegal content and warns on personal data in the public facts, keeping what was typed", async () => {
    const member = await createMember({ name: "Carla Exempel" });
    const { caseId } = await reportedCase(member, "harassment");
    const cookie = await moderator();
    const base = { action: "ban", rule: "illegal", facts: "Posted calls to violence against a group on 3 November." };
    const noGround = await (await decideAs(cookie, caseId, { ...base, legalGround: "" })).text();
    expect(noGround).toContain("needs the legal provision");
    expect(noGround).toContain("Posted calls to violence against a group on 3 November.</textarea>");
    const personal = await (
      await decideAs(cookie, caseId, {
        ...base,
        publicFacts: "Carla Exempel posted calls to violence, see 0171 2345678.",
      })
    ).text();
    expect(personal).toContain("seem to contain personal data");
    expect(personal).toContain("a number");
    expect(personal).toContain("the name &quot;Carla Exempel&quot;");
    expect(personal).toContain('name="publicOk"');
    expect(await env.DB.prepare("SELECT status FROM moderation_cases WHERE id = ?1").bind(caseId).first("status")).toBe(
      "open",
    );
    const res = await decideAs(cookie, caseId, { ...base, publicFacts: "Public calls to violence against a group." });
    expect(res.status).toBe(302);
    const d = await env.DB.prepare("SELECT public_facts, legal_ground FROM decisions WHERE case_id = ?1")
      .bind(caseId)
      .first<{ public_facts: string; legal_ground: string }>();
    expect(d).toEqual({ public_facts: "Public calls to violence against a group.", legal_ground: "hatred" });
  });
});
