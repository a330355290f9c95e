/**
 * Evidence and escalation, statements sent to the Transparency Database as they are made, and the
 * shared queue (decisions 218, 219): a photo removed as intimate imagery without consent is kept in
 * the evidence bucket for the admin only (views and deletion audited) and its case escalated; each
 * statement goes through DSA_QUEUE to the database (the stand-in locally, the real API by its
 * documented answers), its state shown in the case; the queue filters, assigns and lists closed cases.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { handleDsaBatch, submitStatement, type DsaSubmission } from "../../app/models/dsa-submit.server";
import { purgeEvidence } from "../../app/models/admin/evidence.server";
import { parseQueueFilter, queueQuery } from "../../app/models/admin/queue.server";
import { photoKey } from "../../app/models/photos.server";
import { getDb } from "../../db/client";
import type { Env } from "../../app/lib/env";
import { DSA_MAX_DELIVERIES } from "../../app/models/dsa-database";
import { auditRows, createOperator, operatorCookie } from "./admin-support";
import { createMember, get, photoRow, post } from "./fixtures";
import { decideAs, moderator, reportedCase } from "./moderation-support";

afterEach(() => vi.unstubAllGlobals());

/** Runs the DSA queue's consumer on one decision, as the queue would deliver it (its `attempts`th delivery). */
async function deliver(decisionId: string, attempts = 1, bindings: Env = env as unknown as Env) {
  const batch = createMessageBatch<DsaSubmission>("dsa-statements", [
    { id: `m-${decisionId}`, timestamp: new Date(), attempts, body: { decisionId } },
  ]);
  await handleDsaBatch(batch, bindings);
  return getQueueResult(batch, createExecutionContext());
}
const submission = (decisionId: string) =>
  env.DB.prepare("SELECT * FROM dsa_submissions WHERE decision_id = ?1")
    .bind(decisionId)
    .first<{ status: string; error: string | null; uuid: string | null; attempts: number; response: string | null }>();
const decisionOf = async (caseId: string) =>
  (await env.DB.prepare("SELECT id FROM decisions WHERE case_id = ?1").bind(caseId).first<string>("id"))!;

/** A member's photo with its files, reported as `category`; the case and the moderator's cookie. */
async function reportedPhoto(category: string) {
  const member = await createMember({ language: "de" });
  const photoId = `ph-${crypto.randomUUID()}`;
  await photoRow(member.id, photoId).run();
  for (const v of ["full", "thumb", "blur"] as const)
    await env.PHOTOS.put(photoKey(photoId, v), `bytes-of-${v}`, { httpMetadata: { contentType: "image/webp" } });
  const { caseId } = await reportedCase(member, category, `photo=${photoId}`);
  return { member, photoId, caseId };
}

describe("evidence and escalation", () => {
  it("an NCII removal is preserved for the admin only, escalated, and deleted after its retention, all audited", async () => {
    const { photoId, caseId } = await reportedPhoto("ncii");
    const mod = await moderator();
    const res = await decideAs(mod, caseId, {
      action: "remove_photo",
      rule: "consent",
      facts: "Das Foto zeigt eine Person ohne deren Einwilligung.",
      publicFacts: "An intimate image of a third person shared without consent.",
    });
    expect(res.status).toBe(302);
    // The member's photo is gone at once; a copy waits in the evidence bucket, under its own keys.
    for (const v of ["full", "thumb", "blur"] as const) expect(await env.PHOTOS.get(photoKey(photoId, v))).toBeNull();
    const item = (await env.DB.prepare("SELECT * FROM evidence WHERE case_id = ?1")
      .bind(caseId)
      .first<{ id: string; object_key: string; retain_until: number; created_at: number; category: string }>())!;
    expect(item).toMatchObject({ category: "ncii" });
    expect(item.object_key.startsWith("evidence/")).toBe(true);
    expect(item.retain_until - item.created_at).toBe(180 * 86_400);
    expect(await (await env.EVIDENCE.get(item.object_key))!.text()).toBe("bytes-of-full");

    // Only the admin sees it: not the moderator's case page, not the moderator's fetch.
    const modPage = await (await get(`/admin/reports/${caseId}`, { cookie: mod })).text();
    expect(modPage).not.toContain("Evidence and escalation");
    expect(modPage).not.toContain(`/admin/evidence/${item.id}`);
    expect((await get(`/admin/evidence/${item.id}`, { cookie: mod })).status).toBe(403);
    const admin = await createOperator("admin");
    const adminCookie = await operatorCookie(admin.id);
    const adminPage = await (await get(`/admin/reports/${caseId}`, { cookie: adminCookie })).text();
    expect(adminPage).toContain("Evidence and escalation");
    const view = await get(`/admin/evidence/${item.id}`, { cookie: adminCookie });
    expect(view.status).toBe(200);
    expect(view.headers.get("Cache-Control")).toContain("no-store");
    expect(await view.text()).toBe("bytes-of-full");

    // The escalation: to whom and when (Art. 18), recorded by the admin only.
    const form = {
      intent: "escalate",
      recipientType: "police",
      recipient: "Landeskriminalamt Berlin",
      reference: "LKA-2026-1",
      reportedAt: "2026-11-27T09:30",
    };
    expect((await post(`/admin/reports/${caseId}`, form, { cookie: mod })).status).toBe(403);
    expect((await post(`/admin/reports/${caseId}`, form, { cookie: adminCookie })).status).toBe(302);
    const esc = await env.DB.prepare("SELECT * FROM escalations WHERE case_id = ?1").bind(caseId).all();
    expect(esc.results).toEqual([
      expect.objectContaining({
        recipient_type: "police",
        recipient: "Landeskriminalamt Berlin",
        reference: "LKA-2026-1",
        reported_at: Date.UTC(2026, 10, 27, 9, 30) / 1000,
        operator_id: admin.id,
      }),
    ]);
    const bad = await post(
      `/admin/reports/${caseId}`,
      { ...form, recipient: "", reportedAt: "soon" },
      { cookie: adminCookie },
    );
    expect(bad.status).toBe(200);
    expect(await bad.text()).toContain("Say to whom");
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM escalations WHERE case_id = ?1").bind(caseId).first("n"),
    ).toBe(1);

    // The retention ends: the cron deletes the object, marks the row, audits it; a second run does nothing.
    expect(await purgeEvidence(env, item.retain_until - 1)).toBe(0);
    expect(await purgeEvidence(env, item.retain_until)).toBe(1);
    expect(await purgeEvidence(env, item.retain_until + 10)).toBe(0);
    expect(await env.EVIDENCE.get(item.object_key)).toBeNull();
    expect((await get(`/admin/evidence/${item.id}`, { cookie: adminCookie })).status).toBe(404);
    const actions = (await auditRows(caseId)).map((r) => r.action);
    expect(actions).toEqual(
      expect.arrayContaining(["evidence.preserve", "evidence.view", "case.escalate", "evidence.delete"]),
    );
    expect(actions.filter((a) => a === "evidence.delete")).toHaveLength(1);
  });

  it("a photo removed for another category is held for its appeal, not kept as evidence", async () => {
    const { caseId } = await reportedPhoto("spam");
    await decideAs(await moderator(), caseId, {
      action: "remove_photo",
      rule: "commercial",
      facts: "Das Foto wirbt für eine andere Website.",
    });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM evidence WHERE case_id = ?1").bind(caseId).first("n")).toBe(
      0,
    );
  });
});

describe("statements sent to the Transparency Database as they are made", () => {
  it("a decision's statement is queued, sent through DSA_QUEUE to the stand-in, and shown as sent in the case", async () => {
    const member = await createMember({ language: "de" });
    const { caseId } = await reportedCase(member, "harassment");
    const mod = await moderator();
    await decideAs(mod, caseId, {
      action: "suspend",
      days: "7",
      rule: "conduct",
      facts: "Sie haben einem anderen Mitglied gedroht.",
      publicFacts: "Threats sent to another member in private messages.",
    });
    const decisionId = await decisionOf(caseId);
    expect((await submission(decisionId))?.status).toMatch(/^(queued|sent)$/);
    const result = await deliver(decisionId);
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toEqual([`m-${decisionId}`]);
    const row = (await submission(decisionId))!;
    expect(row.status).toBe("sent");
    expect(row.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(row.response).toMatch(/^201 /);
    // A second delivery of the same message sends nothing again.
    await deliver(decisionId);
    expect((await submission(decisionId))!.uuid).toBe(row.uuid);
    const page = await (await get(`/admin/reports/${caseId}`, { cookie: mod })).text();
    expect(page).toContain("Transparency Database");
    expect(page).toContain(row.uuid);
    // "No action" is no statement: nothing is queued for it.
    const other = await reportedCase(await createMember(), "spam");
    await decideAs(mod, other.caseId, { action: "no_action", rule: "", facts: "Nothing against the terms here." });
    expect(await submission(await decisionOf(other.caseId))).toBeNull();
  });

  it("a statement the database would refuse is refused with its errors, shown in the case, and sent again after a fix", async () => {
    const member = await createMember();
    const { caseId } = await reportedCase(member, "harassment");
    const mod = await moderator();
    await decideAs(mod, caseId, {
      action: "restrict_messaging",
      days: "3",
      rule: "conduct",
      facts: "You insulted another member repeatedly.",
      publicFacts: "Insults sent to another member in private messages.",
    });
    const decisionId = await decisionOf(caseId);
    // A brand domain that is no URL makes decision_ground_reference_url invalid.
    await env.DB.prepare("UPDATE dsa_submissions SET status = 'queued' WHERE decision_id = ?1").bind(decisionId).run();
    await env.DB.prepare("UPDATE brands SET domain = 'not a domain' WHERE id = 1").run();
    await deliver(decisionId);
    const refused = (await submission(decisionId))!;
    expect(refused.status).toBe("refused");
    expect(refused.error).toContain("decision_ground_reference_url");
    const page = await (await get(`/admin/reports/${caseId}`, { cookie: mod })).text();
    expect(page).toContain("refused");
    expect(page).toContain("decision_ground_reference_url");
    await env.DB.prepare("UPDATE brands SET domain = 'localhost' WHERE id = 1").run();
    expect((await post(`/admin/reports/${caseId}`, { intent: "resubmit", decisionId }, { cookie: mod })).status).toBe(
      302,
    );
    await deliver(decisionId);
    expect((await submission(decisionId))!.status).toBe("sent");
    expect((await auditRows(decisionId)).map((r) => r.action)).toContain("dsa.resubmit");
  });

  it("the real adapter posts to /api/v1/statement with the token and records the database's answers; what fails is retried", async () => {
    const member = await createMember();
    const { caseId } = await reportedCase(member, "harassment");
    await decideAs(await moderator(), caseId, {
      action: "suspend",
      days: "2",
      rule: "conduct",
      facts: "You insulted another member.",
      publicFacts: "Insults sent to another member.",
    });
    const decisionId = await decisionOf(caseId);
    await env.DB.prepare("UPDATE dsa_submissions SET status = 'queued', uuid = NULL WHERE decision_id = ?1")
      .bind(decisionId)
      .run();
    const real = {
      ...env,
      ENVIRONMENT: "production" as const,
      DSA_DATABASE_URL: "https://tdb.example",
      DSA_DATABASE_TOKEN: "X|token-of-the-platform-0123",
    };
    const calls: { url: string; init: RequestInit }[] = [];
    const answers = [
      new Response("busy", { status: 503 }),
      new Response(JSON.stringify({ uuid: "4b989c23-3736-4fd9-8612-a975b98d88d6", puid: decisionId }), { status: 201 }),
    ];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return answers.shift()!;
    });
    expect(await submitStatement(real, decisionId)).toBe("retry");
    expect((await submission(decisionId))!).toMatchObject({ status: "queued", error: "HTTP 503", attempts: 1 });
    expect(await submitStatement(real, decisionId)).toBe("sent");
    expect((await submission(decisionId))!).toMatchObject({
      status: "sent",
      uuid: "4b989c23-3736-4fd9-8612-a975b98d88d6",
      attempts: 2,
    });
    expect(calls[0]!.url).toBe("https://tdb.example/api/v1/statement");
    expect(calls[0]!.init.method).toBe("POST");
    const headers = new Headers(calls[0]!.init.headers);
    expect(headers.get("Authorization")).toBe("Bearer X|token-of-the-platform-0123");
    expect(headers.get("Accept")).toBe("application/json");
    const body = JSON.parse(String(calls[0]!.init.body)) as Record<string, unknown>;
    expect(body).toMatchObject({ puid: decisionId, decision_account: "DECISION_ACCOUNT_SUSPENDED" });

    // A 422 is a refusal with the database's errors; a puid it already has is "sent".
    await env.DB.prepare("UPDATE dsa_submissions SET status = 'queued' WHERE decision_id = ?1").bind(decisionId).run();
    vi.stubGlobal("fetch", async () =>
      Response.json(
        {
          message: "The identifier given is not unique within this platform.",
          errors: { puid: ["The identifier given is not unique within this platform."] },
          existing: { uuid: "6bf8beb0-765c-4e79-8cb1-dc93fc7478bb" },
        },
        { status: 422 },
      ),
    );
    expect(await submitStatement(real, decisionId)).toBe("sent");
    expect((await submission(decisionId))!.uuid).toBe("6bf8beb0-765c-4e79-8cb1-dc93fc7478bb");
    await env.DB.prepare("UPDATE dsa_submissions SET status = 'queued' WHERE decision_id = ?1").bind(decisionId).run();
    vi.stubGlobal("fetch", async () =>
      Response.json(
        { message: "The category field is required.", errors: { category: ["The category field is required."] } },
        { status: 422 },
      ),
    );
    expect(await submitStatement(real, decisionId)).toBe("refused");
    expect((await submission(decisionId))!.error).toBe("category: The category field is required.");
    // Unreachable: queued with the reason, retried by the queue with a growing delay.
    await env.DB.prepare("UPDATE dsa_submissions SET status = 'queued' WHERE decision_id = ?1").bind(decisionId).run();
    vi.stubGlobal("fetch", async () => {
      throw new Error("connection reset");
    });
    expect(await submitStatement(real, decisionId)).toBe("retry");
    expect((await submission(decisionId))!.error).toBe("unreachable: connection reset");
  });
});

describe("a statement whose tries ran out", () => {
  it("is marked failed with its last error on the queue's last delivery, shown in the case to send again and counted on the dashboard", async () => {
    const member = await createMember();
    const { caseId } = await reportedCase(member, "harassment");
    const mod = await moderator();
    await decideAs(mod, caseId, {
      action: "suspend",
      days: "2",
      rule: "conduct",
      facts: "You insulted another member.",
      publicFacts: "Insults sent to another member.",
    });
    const decisionId = await decisionOf(caseId);
    await env.DB.prepare("UPDATE dsa_submissions SET status = 'queued', uuid = NULL WHERE decision_id = ?1")
      .bind(decisionId)
      .run();
    const real = {
      ...env,
      ENVIRONMENT: "production",
      DSA_DATABASE_URL: "https://tdb.example",
      DSA_DATABASE_TOKEN: "X|token-of-the-platform-0123",
    } as unknown as Env;
    vi.stubGlobal("fetch", async () => new Response("busy", { status: 503 }));
    // Before the last delivery: still queued, retried.
    const before = await deliver(decisionId, DSA_MAX_DELIVERIES - 1, real);
    expect(before.retryMessages.map((m) => m.msgId)).toEqual([`m-${decisionId}`]);
    expect((await submission(decisionId))!).toMatchObject({ status: "queued", error: "HTTP 503" });
    // The last delivery: failed with the last error, acknowledged (no retry the queue would drop).
    vi.stubGlobal("fetch", async () => new Response("gateway timeout", { status: 504 }));
    const last = await deliver(decisionId, DSA_MAX_DELIVERIES, real);
    expect(last.retryMessages).toEqual([]);
    expect(last.explicitAcks).toEqual([`m-${decisionId}`]);
    expect((await submission(decisionId))!).toMatchObject({ status: "failed", error: "HTTP 504" });

    const page = await (await get(`/admin/reports/${caseId}`, { cookie: mod })).text();
    expect(page).toContain("failed: the tries ran out");
    expect(page).toContain("HTTP 504");
    expect(page).toContain('name="intent" value="resubmit"');
    const dashboard = await (await get("/admin", { cookie: mod })).text();
    expect(dashboard).toMatch(/statements that failed to reach the Transparency Database/);
    const transparency = await (await get("/admin/transparency", { cookie: mod })).text();
    expect(transparency).toContain(`/admin/reports/${caseId}`);
    expect(transparency).toContain("failed, send again");
    // Sent again (audited): queued, and the database answers this time.
    expect((await post(`/admin/reports/${caseId}`, { intent: "resubmit", decisionId }, { cookie: mod })).status).toBe(
      302,
    );
    expect((await submission(decisionId))!.status).toBe("queued");
    vi.stubGlobal("fetch", async () =>
      Response.json({ uuid: "4b989c23-3736-4fd9-8612-a975b98d88d6", puid: decisionId }, { status: 201 }),
    );
    await deliver(decisionId, 1, real);
    expect((await submission(decisionId))!.status).toBe("sent");
    expect((await auditRows(decisionId)).map((r) => r.action)).toContain("dsa.resubmit");
  });
});

describe("the shared queue", () => {
  it("lists closed cases, filters by brand, category, age and assignment, searches, and shows the brand", async () => {
    const mod = await createOperator("moderator");
    const cookie = await operatorCookie(mod.id);
    const a = await createMember({ name: "Quentin Queue" });
    const b = await createMember({ name: "Rita Rest" });
    const caseA = (await reportedCase(a, "scam")).caseId;
    const caseB = (await reportedCase(b, "spam")).caseId;
    // Taken by the moderator: "mine"; the other stays unassigned.
    expect((await post(`/admin/reports/${caseA}`, { intent: "assign" }, { cookie })).status).toBe(302);
    const list = async (query: string) => (await get(`/admin/reports?${query}`, { cookie })).text();
    const mine = await list("assigned=mine");
    expect(mine).toContain("Quentin Queue");
    expect(mine).not.toContain("Rita Rest");
    const unassigned = await list("assigned=unassigned");
    expect(unassigned).toContain("Rita Rest");
    expect(unassigned).not.toContain("Quentin Queue");
    expect(await list("category=spam")).not.toContain("Quentin Queue");
    expect(await list("q=Quent")).not.toContain("Rita Rest");
    expect(await list(`q=${caseB}`)).toContain("Rita Rest");
    expect(await list("age=7")).not.toContain("Rita Rest");
    expect(await list("brand=1")).toContain("Amora");
    // Decided: gone from the open queue, found among the closed cases.
    await decideAs(cookie, caseB, { action: "no_action", rule: "", facts: "Nothing against the terms here." });
    expect(await list("")).not.toContain("Rita Rest");
    expect(await list("status=closed")).toContain("Rita Rest");
    expect((await auditRows(caseA)).map((r) => r.action)).toContain("case.assign");
  });

  it("every queue view reads through an index", async () => {
    const db = getDb(env.DB);
    const now = 2_000_000_000;
    for (const query of [
      "",
      "status=closed",
      "assigned=mine",
      "assigned=unassigned",
      "brand=1&category=spam",
      "age=7",
    ]) {
      const q = queueQuery(db, parseQueueFilter(new URLSearchParams(query)), "op-x", now).toSQL();
      const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
        .bind(...q.params)
        .all<{ detail: string }>();
      const cases = plan.results.map((r) => r.detail).filter((d) => /moderation_cases/.test(d));
      expect(cases.length, query).toBeGreaterThan(0);
      for (const d of cases) expect(d, query).toMatch(/USING (COVERING )?INDEX|USING INTEGER PRIMARY KEY|PRIMARY KEY/);
    }
  });
});
