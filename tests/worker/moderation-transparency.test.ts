/**
 * Transparency (decision 176): the monthly counts against seeded cases, notices,
 * decisions and flags (a controlled clock: a month no other test writes to), the Transparency
 * Database export's fields, its download and audit row, and who may see it.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { transparencyReport } from "../../app/models/admin/transparency.server";
import { auditRows, createOperator, operatorCookie } from "./admin-support";
import { createMember, get, post, sessionCookie } from "./fixtures";

const at = (y: number, m: number, d: number, h = 12) => Date.UTC(y, m - 1, d, h) / 1000;
const NOW = at(2031, 3, 28);

let n = 0;
async function seedCase(o: {
  memberId: string;
  targetType?: "member" | "photo" | "message";
  severity: number;
  openedAt: number;
  flaggedBy?: string;
  notices?: { category: string; at: number }[];
  flag?: { rule: string; at: number };
  decision?: {
    action: string;
    rule: string;
    at: number;
    endsAt?: number;
    automated?: boolean;
    legalGround?: string;
  };
}) {
  const id = `tc-${++n}-${Math.random().toString(36).slice(2, 8)}`;
  const s = [
    env.DB.prepare(
      `INSERT INTO moderation_cases (id, brand_id, target_type, target_id, member_id, severity, status, flagged_by, opened_at, closed_at)
       VALUES (?1, 1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
    ).bind(
      id,
      o.targetType ?? "member",
      o.targetType === "photo" ? `photo-${id}` : o.targetType === "message" ? `conv-${id}:1` : o.memberId,
      o.memberId,
      o.severity,
      o.decision ? "closed" : "open",
      o.flaggedBy ?? null,
      o.openedAt,
      o.decision?.at ?? null,
    ),
    ...(o.notices ?? []).map((x, i) =>
      env.DB.prepare(
        "INSERT INTO notices (case_id, reporter_id, category, explanation, language, created_at) VALUES (?1, ?2, ?3, '', 'en', ?4)",
      ).bind(id, `reporter-${id}-${i}`, x.category, x.at),
    ),
  ];
  if (o.flag)
    s.push(
      env.DB.prepare("INSERT INTO case_flags (case_id, rule, detail, created_at) VALUES (?1, ?2, '', ?3)").bind(
        id,
        o.flag.rule,
        o.flag.at,
      ),
    );
  if (o.decision)
    s.push(
      env.DB.prepare(
        `INSERT INTO decisions (id, case_id, member_id, operator_id, action, rule, facts, ends_at, automated_detection, created_at, public_facts, legal_ground)
         VALUES (?1, ?2, ?3, 'op-seed', ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`,
      ).bind(
        `d-${id}`,
        id,
        o.memberId,
        o.decision.action,
        o.decision.rule,
        `Facts of ${o.decision.action}.`,
        o.decision.endsAt ?? null,
        o.decision.automated ? 1 : 0,
        o.decision.at,
        `Public facts of ${o.decision.action}.`,
        o.decision.legalGround ?? "",
      ),
    );
  await env.DB.batch(s);
  return id;
}

/** March of `y`: four decided cases (terms, illegal, a flag-only ban, no action); February: one open notice. */
async function seedMarch(y: number) {
  const member = await createMember({ language: "de" });
  const t0 = at(y, 3, 2);
  await seedCase({
    memberId: member.id,
    severity: 4, // harassment
    openedAt: t0,
    notices: [
      { category: "harassment", at: t0 },
      { category: "spam", at: t0 + 100 },
    ],
    decision: { action: "suspend", rule: "conduct", at: t0 + 3600, endsAt: at(y, 3, 9) },
  });
  const t1 = at(y, 3, 10);
  await seedCase({
    memberId: member.id,
    targetType: "photo",
    severity: 1, // ncii
    openedAt: t1,
    notices: [{ category: "ncii", at: t1 }],
    decision: { action: "remove_photo", rule: "consent", at: t1 + 7200, legalGround: "ncii" },
  });
  const t2 = at(y, 3, 20);
  await seedCase({
    memberId: member.id,
    severity: 3, // scam, opened by a flag only
    openedAt: t2,
    flaggedBy: "payment_request",
    flag: { rule: "payment_request", at: t2 },
    decision: { action: "ban", rule: "fraud", at: t2 + 600, automated: true },
  });
  const t3 = at(y, 3, 25);
  await seedCase({
    memberId: member.id,
    targetType: "message",
    severity: 7,
    openedAt: t3,
    notices: [{ category: "other", at: t3 }],
    decision: { action: "no_action", rule: "", at: t3 + 60 },
  });
  await seedCase({
    memberId: member.id,
    severity: 0,
    openedAt: at(y, 2, 14),
    notices: [{ category: "minor", at: at(y, 2, 14) }],
  });
  return member;
}

describe("transparency", () => {
  it("counts notices by category, decisions by ground and category, the median time to decision and flags by rule, per month", async () => {
    const member = await seedMarch(2031);
    // Two appeals came in in March; the ban's was reversed in March, the suspension's is still open.
    const { results: ds } = await env.DB.prepare("SELECT id, action FROM decisions WHERE member_id = ?1")
      .bind(member.id)
      .all<{ id: string; action: string }>();
    const decisionOf = (action: string) => ds.find((d) => d.action === action)!.id;
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO appeals (id, decision_id, member_id, explanation, language, status, created_at) VALUES ('ap-1', ?1, ?2, 'Not me.', 'de', 'open', ?3)",
      ).bind(decisionOf("suspend"), member.id, at(2031, 3, 12)),
      env.DB.prepare(
        `INSERT INTO appeals (id, decision_id, member_id, explanation, language, status, created_at, operator_id, reasons, decided_at)
         VALUES ('ap-2', ?1, ?2, 'A misunderstanding.', 'de', 'reversed', ?3, 'op-2', 'Reversed.', ?4)`,
      ).bind(decisionOf("ban"), member.id, at(2031, 3, 21), at(2031, 3, 22)),
    ]);
    const months = await transparencyReport(env.DB, NOW);
    expect(months).toHaveLength(12);
    expect(months.map((m) => m.month).slice(0, 3)).toEqual(["2031-03", "2031-02", "2031-01"]);
    const [march, feb, jan] = months;
    expect(march).toMatchObject({
      notices: 4,
      noticesByCategory: { harassment: 1, spam: 1, ncii: 1, other: 1 },
      decisions: 4,
      automated: 1,
      decisionsByCategory: {
        harassment: { illegal: 0, terms: 1, none: 0 },
        ncii: { illegal: 1, terms: 0, none: 0 },
        scam: { illegal: 0, terms: 1, none: 0 },
        other: { illegal: 0, terms: 0, none: 1 },
      },
      // 60 s, 600 s (from the flag), 3600 s (from the first of two notices), 7200 s: the middle two's mean.
      medianSeconds: 2100,
      flags: 1,
      flagsByRule: { payment_request: 1 },
      appeals: 2,
      reversals: 1,
    });
    expect(feb).toMatchObject({ notices: 1, noticesByCategory: { minor: 1 }, decisions: 0, medianSeconds: null });
    expect(jan).toMatchObject({ notices: 0, decisions: 0, flags: 0 });
  });

  it("exports the month's statements of reasons in the Transparency Database's fields as a download, audited; no action is no statement", async () => {
    const member = await seedMarch(2032);
    const mod = await createOperator("moderator");
    const cookie = await operatorCookie(mod.id);
    const res = await post("/admin/transparency/export", { month: "2032-03" }, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="statements-of-reasons-2032-03.json"');
    const { statements } = (await res.json()) as { statements: Record<string, unknown>[] };
    const mine = statements.filter((s) => String(s.puid).startsWith("d-tc-"));
    expect(mine.map((s) => s.decision_account ?? s.decision_visibility)).toEqual([
      "DECISION_ACCOUNT_SUSPENDED",
      ["DECISION_VISIBILITY_CONTENT_REMOVED"],
      "DECISION_ACCOUNT_TERMINATED",
    ]);
    const [suspension, photo, ban] = mine;
    for (const s of mine)
      expect(Object.keys(s!)).toEqual(
        expect.arrayContaining([
          "decision_visibility",
          "decision_monetary",
          "decision_provision",
          "decision_account",
          "account_type",
          "decision_ground",
          "decision_ground_reference_url",
          "category",
          "category_specification",
          "content_type",
          "content_language",
          "content_date",
          "application_date",
          "decision_facts",
          "source_type",
          "automated_detection",
          "automated_decision",
          "territorial_scope",
          "puid",
        ]),
      );
    expect(suspension).toMatchObject({
      decision_ground: "DECISION_GROUND_INCOMPATIBLE_CONTENT",
      incompatible_content_ground: "Respectful conduct",
      incompatible_content_explanation: "Public facts of suspend.",
      incompatible_content_illegal: "No",
      illegal_content_legal_ground: null,
      category: "STATEMENT_CATEGORY_CYBER_VIOLENCE",
      category_specification: ["KEYWORD_CYBER_HARASSMENT"],
      content_type: ["CONTENT_TYPE_OTHER"],
      content_language: "DE",
      application_date: "2032-03-02",
      end_date_account_restriction: "2032-03-09",
      source_type: "SOURCE_ARTICLE_16",
      automated_detection: "No",
      automated_decision: "AUTOMATED_DECISION_NOT_AUTOMATED",
      account_type: "ACCOUNT_TYPE_PRIVATE",
    });
    expect(suspension!.decision_ground_reference_url).toMatch(/^https:\/\/[^/]+\/pages\/terms$/);
    expect(
      Array.isArray(suspension!.territorial_scope) && (suspension!.territorial_scope as string[]).length,
    ).toBeTruthy();
    expect(photo).toMatchObject({
      decision_ground: "DECISION_GROUND_ILLEGAL_CONTENT",
      illegal_content_legal_ground:
        "Directive (EU) 2024/1385, Art. 5 (non-consensual sharing of intimate or manipulated material)",
      illegal_content_explanation: "Public facts of remove_photo.",
      decision_facts: "Public facts of remove_photo.",
      category: "STATEMENT_CATEGORY_CYBER_VIOLENCE",
      category_specification: ["KEYWORD_NON_CONSENSUAL_IMAGE_SHARING"],
      content_type: ["CONTENT_TYPE_IMAGE"],
    });
    expect(ban).toMatchObject({
      category: "STATEMENT_CATEGORY_SCAMS_AND_FRAUD",
      source_type: "SOURCE_VOLUNTARY",
      automated_detection: "Yes",
      automated_decision: "AUTOMATED_DECISION_NOT_AUTOMATED",
      end_date_account_restriction: null,
    });
    // The member's identity is not in the statement.
    expect(JSON.stringify(mine)).not.toContain(member.id);
    expect(JSON.stringify(mine)).not.toContain(member.email);
    const audit = (await auditRows("2032-03")).filter((r) => r.action === "transparency.export");
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ operatorId: mod.id, role: "moderator", targetType: "month" });
  });

  it("refuses a malformed month, a GET, a member, a visitor and the wrong roles; shows the page to a moderator", async () => {
    const cookie = await operatorCookie((await createOperator("admin")).id);
    for (const month of ["2031-13", "2031-3", "", "x".repeat(5000)])
      expect((await post("/admin/transparency/export", { month }, { cookie })).status).toBe(400);
    // No GET: the export is a POST (it writes the audit row).
    expect((await get("/admin/transparency/export", { cookie })).status).toBeGreaterThanOrEqual(400);
    for (const role of ["support", "finance"] as const) {
      const c = await operatorCookie((await createOperator(role)).id);
      expect((await get("/admin/transparency", { cookie: c })).status).toBe(403);
      expect((await post("/admin/transparency/export", { month: "2031-03" }, { cookie: c })).status).toBe(403);
    }
    const member = await sessionCookie((await createMember()).id);
    for (const c of [member, undefined]) {
      const res = await post("/admin/transparency/export", { month: "2031-03" }, { cookie: c });
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toMatch(/^\/admin\/login/);
    }
    const page = await get("/admin/transparency", {
      cookie: await operatorCookie((await createOperator("moderator")).id),
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Decisions by ground and category");
    expect(html).toContain('action="/admin/transparency/export"');
    expect(html).not.toContain("<script");
  });
});
