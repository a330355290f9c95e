/**
 * Requests above a threshold waiting for a second admin (decision 217): approve (it runs) or reject.
 * Approving runs a dangerous action, so it asks for the code (or password) again as that action does
 * (decision 226); rejecting changes nothing but the request and takes one click.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ConfirmStep } from "~/components/admin/Confirm";
import { Flash } from "~/components/admin/Flash";
import { when } from "~/components/admin/labels";
import { readForm } from "~/lib/body.server";
import { decideApproval, listApprovals, pendingApproval } from "~/models/admin/approvals.server";
import { guardAction, guardAnswer } from "~/models/admin/guard.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "approvals";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  return { me: operator.id, approvals: await listApprovals(context.env.DB), title: "Approvals" };
}

const decision = z.object({ id: z.string().min(1).max(100), decision: z.enum(["approve", "reject"]) });

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const form = await readForm(request, context);
  const parsed = decision.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { error: "That action is not known." };
  const approve = parsed.data.decision === "approve";
  if (approve) {
    const waiting = await pendingApproval(context.env.DB, parsed.data.id, operator.id);
    if (!waiting.ok) return { error: waiting.error };
    const a = waiting.approval;
    const wait = guardAnswer(
      await guardAction(context.env, operator, form, {
        kind: "approval.approve",
        impact: `Approve and run: ${a.impact}`,
        target: { type: a.targetType, id: a.targetId },
      }),
    );
    if (wait) return wait;
  }
  const result = await decideApproval(context, operator, parsed.data.id, approve);
  return result.ok ? { done: approve ? "Approved and done." : "Rejected: nothing was done." } : { error: result.error };
}

export default function AdminApprovals() {
  const { me, approvals } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <>
      <h1>Approvals</h1>
      {result && "confirm" in result && result.confirm ? (
        <ConfirmStep confirm={result.confirm} cancel="/admin/approvals" />
      ) : (
        <Flash result={result} />
      )}
      <p className="a-muted">
        Grants, refunds and campaigns above their thresholds wait here until another admin approves them.
      </p>
      {approvals.length === 0 ? <p>No requests.</p> : null}
      <ul className="a-stack a-operators">
        {approvals.map((a) => (
          <li key={a.id} className="a-card">
            <div className="a-op-head">
              <span
                className={
                  a.status === "pending"
                    ? "a-badge"
                    : a.status === "approved"
                      ? "a-badge a-badge-ok"
                      : "a-badge a-badge-red"
                }
              >
                {a.status}
              </span>
              <strong>{a.impact}</strong>
            </div>
            <p className="a-muted">
              Asked by {a.requester ?? a.requestedBy} at {when(a.requestedAt)} UTC
              {a.decidedAt ? ` · ${a.status} by ${a.decider ?? "?"} at ${when(a.decidedAt)} UTC` : ""}
            </p>
            {a.status === "pending" ? (
              a.requestedBy === me ? (
                <p className="a-muted">Your own request: another admin decides it.</p>
              ) : (
                <form method="post" className="a-btn-row" aria-label={`Decide: ${a.impact}`}>
                  <input type="hidden" name="id" value={a.id} />
                  <button type="submit" name="decision" value="approve" className="a-btn">
                    Approve
                  </button>
                  <button type="submit" name="decision" value="reject" className="a-btn a-btn-quiet">
                    Reject
                  </button>
                </form>
              )
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
