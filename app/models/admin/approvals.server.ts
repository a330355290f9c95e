/**
 * Second approvals (decision 217): a guarded action above its threshold waits in `console_approvals`
 * until another admin approves it (then it runs, once, with the approver as its actor and the request
 * named in its reason) or rejects it. The requester can never approve their own request.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, desc, eq, ne, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { getDb, schema } from "../../../db/client";
import { nowS } from "~/lib/dates";
import { auditAfterChange, auditStatement } from "./audit.server";
import { changeStatus } from "./campaigns.server";
import { consoleAdjustCredits } from "./members.server";
import { paymentDetail } from "./payments.server";
import { operatorRefund } from "../payments/refunds.server";
import { brandsById } from "../brand.server";
import type { GuardedKind } from "./guard.server";
import type { Operator } from "./operators.server";

export async function listApprovals(d1: D1Database) {
  const { consoleApprovals: A, operators } = schema;
  const decider = alias(operators, "decider");
  return getDb(d1)
    .select({
      id: A.id,
      kind: A.kind,
      targetType: A.targetType,
      targetId: A.targetId,
      impact: A.impact,
      status: A.status,
      requestedAt: A.requestedAt,
      requestedBy: A.requestedBy,
      requester: operators.email,
      decidedAt: A.decidedAt,
      decider: decider.email,
    })
    .from(A)
    .leftJoin(operators, eq(operators.id, A.requestedBy))
    .leftJoin(decider, eq(decider.id, A.decidedBy))
    .orderBy(sql`${A.status} = 'pending' DESC`, desc(A.requestedAt))
    .limit(100);
}

/** A request still waiting, and whether `actorId` may decide it (not their own). */
export async function pendingApproval(
  d1: D1Database,
  id: string,
  actorId: string,
): Promise<{ ok: true; approval: typeof schema.consoleApprovals.$inferSelect } | { ok: false; error: string }> {
  const A = schema.consoleApprovals;
  const [a] = await getDb(d1).select().from(A).where(eq(A.id, id));
  if (!a || a.status !== "pending") return { ok: false, error: "This request is no longer waiting." };
  if (a.requestedBy === actorId) return { ok: false, error: "Another admin must approve your own request." };
  return { ok: true, approval: a };
}

export type Decided = { ok: true } | { ok: false; error: string };

/** Runs an approved request's action; its own rules still hold (a campaign no longer a draft, a spent balance). */
async function run(
  context: AppLoadContext,
  actor: Operator,
  a: typeof schema.consoleApprovals.$inferSelect,
): Promise<Decided> {
  const p = a.params as Record<string, string | number>;
  const why = `${String(p.reason ?? "")} (second approval ${a.id})`.trim();
  switch (a.kind as GuardedKind) {
    case "credits.grant":
      return consoleAdjustCredits(context.env, actor, a.targetId, Number(p.amount), why);
    case "campaign.send":
      return (await changeStatus(
        context.env,
        actor,
        Number(a.targetId),
        p.intent === "schedule" ? "schedule" : "send",
        p.intent === "schedule" ? Number(p.sendAt) : null,
      ))
        ? { ok: true }
        : { ok: false, error: "The campaign can no longer be sent (its status changed)." };
    case "refund": {
      const detail = await paymentDetail(context.env, a.targetId);
      const brand = detail ? (await brandsById(context.env)).get(detail.row.brandId) : undefined;
      if (!detail || !brand) return { ok: false, error: "The payment is gone." };
      const r = await operatorRefund(context, brand, detail.row, actor, {
        amountCents: Number(p.amountCents),
        override: p.override ? String(p.override) : null,
        intentKey: String(p.intentKey),
      });
      return r.ok ? { ok: true } : { ok: false, error: `The refund was refused (${r.reason}).` };
    }
    default:
      return { ok: false, error: "This kind of request cannot be approved." };
  }
}

/**
 * Approves (and runs) or rejects a pending request: a guarded status change that only an admin
 * other than the requester can make, audited; a run its own rules refuse marks the request failed.
 */
export async function decideApproval(
  context: AppLoadContext,
  actor: Operator,
  id: string,
  approve: boolean,
  now = nowS(),
): Promise<Decided> {
  const db = getDb(context.env.DB);
  const A = schema.consoleApprovals;
  const waiting = await pendingApproval(context.env.DB, id, actor.id);
  if (!waiting.ok) return waiting;
  const a = waiting.approval;
  const [res] = await db.batch([
    db
      .update(A)
      .set({ status: approve ? "approved" : "rejected", decidedBy: actor.id, decidedAt: now })
      .where(and(eq(A.id, id), eq(A.status, "pending"), ne(A.requestedBy, actor.id))),
    auditAfterChange(
      db,
      actor,
      {
        action: approve ? "approval.approve" : "approval.reject",
        targetType: a.targetType,
        targetId: a.targetId,
        after: { approval: id, kind: a.kind, requestedBy: a.requestedBy },
      },
      now,
    ),
  ]);
  if (res.meta.changes !== 1) return { ok: false, error: "This request is no longer waiting." };
  if (!approve) return { ok: true };
  const done = await run(context, actor, a);
  if (!done.ok)
    await db.batch([
      db
        .update(A)
        .set({ status: "failed" })
        .where(and(eq(A.id, id), eq(A.status, "approved"))),
      auditStatement(
        db,
        actor,
        {
          action: "approval.failed",
          targetType: a.targetType,
          targetId: a.targetId,
          reason: done.error,
          after: { approval: id },
        },
        now,
      ),
    ]);
  return done;
}
