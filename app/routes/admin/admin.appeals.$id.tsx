/**
 * One appeal (moderator, admin; decision 174): the decision with its facts, the case's notices, the
 * member's explanation, and the outcome form. The model refuses the operator who took the decision.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { readForm } from "~/lib/body.server";
import { paragraph } from "~/lib/text";
import { linkOrigin } from "~/models/brand.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { APPEAL_REASONS_MIN, appealDetail, decideAppeal } from "~/models/appeals.server";
import { ACTION_LABELS, CATEGORY_LABELS, RULE_LABELS, when } from "~/components/admin/labels";
import { Facts } from "~/components/admin/AdminTable";
import { MessageExcerpt, ProfileFacts, ProfilePhotos, ReportedPhoto } from "~/components/admin/CaseContent";
import { messageExcerpt, revealPhotos } from "~/models/admin/queue.server";
import { removedText } from "~/models/moderation-rules";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "appeals";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const a = await appealDetail(context.env.DB, params.id ?? "");
  if (!a) throw new Response("No such appeal.", { status: 404 });
  return { a, mine: a.d.operatorId === operator.id, removedText: removedText(a.d.removed) };
}

const OutcomeForm = z.object({
  outcome: z.enum(["upheld", "reversed"]),
  reasons: paragraph(z.string().min(APPEAL_REASONS_MIN).max(2000)),
});

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const form = Object.fromEntries(await readForm(request, context));
  if (form.intent === "reveal" || form.intent === "excerpt") {
    const a = await appealDetail(context.env.DB, params.id ?? "");
    if (!a) throw new Response("No such appeal.", { status: 404 });
    if (form.intent === "reveal") {
      await revealPhotos(context.env.DB, operator, { type: "appeal", id: a.a.id });
      return { revealed: true };
    }
    const m = a.targetType === "message" ? /^(.+):(\d+)$/.exec(a.targetId) : null;
    if (!m) throw new Response("No message in this appeal.", { status: 404 });
    const target = { conversationId: m[1]!, seq: Number(m[2]) };
    return { excerpt: await messageExcerpt(context.env, operator, a.d.caseId, target) };
  }
  const parsed = OutcomeForm.safeParse(form);
  if (!parsed.success) return { error: "Choose uphold or reverse and write the reasons (at least 10 characters)." };
  const result = await decideAppeal(context.env, operator, params.id ?? "", parsed.data, {
    origin: (domain) => linkOrigin({ domain }, context.env, request),
  });
  if (!result.ok) {
    return {
      error:
        result.error === "same_operator"
          ? "You took this decision: another operator decides its appeal."
          : result.error === "closed"
            ? "This appeal was already decided."
            : "No such appeal.",
    };
  }
  return redirect("/admin/appeals");
}

export default function AdminAppeal() {
  const { a, mine, removedText } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const d = a.d;
  const revealed = !!(result && "revealed" in result);
  const error = result && "error" in result ? result.error : null;
  return (
    <>
      <p>
        <a href="/admin/appeals">← Appeals</a>
      </p>
      <h1>
        Appeal: {ACTION_LABELS[d.action]} · {a.name ?? "(deleted member)"}
      </h1>
      {error ? (
        <p className="a-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="a-card">
        <h2>The member's explanation</h2>
        <p className="a-muted">Filed {when(a.a.createdAt)}</p>
        <blockquote className="a-quote">{a.a.explanation}</blockquote>
      </div>
      <div className="a-card">
        <h2>The decision</h2>
        <Facts
          items={[
            [
              "Decision",
              `${ACTION_LABELS[d.action]}${d.endsAt && d.action === "suspend" ? ` until ${when(d.endsAt)}` : ""}`,
            ],
            ["Rule", d.rule ? RULE_LABELS[d.rule] : "(none)"],
            ["Facts", d.facts],
            [
              "Decided",
              `${when(d.createdAt)} by ${a.decidedBy ?? d.operatorId}${d.automatedDetection ? " · detected by automated means" : ""}`,
            ],
            [
              "Target",
              `${a.targetType} of ${a.name ?? "(deleted)"} (${a.email ?? ""})${
                d.action === "remove_photo"
                  ? a.heldPhoto
                    ? ` · photo held until the appeal window ends${a.heldPhoto.wasMain ? " (was the main photo)" : ""}`
                    : " · photo deleted at once, cannot be restored"
                  : ""
              }`,
            ],
          ]}
        />
      </div>
      <div className="a-card">
        <h2>What was decided on</h2>
        {a.photo ? <ReportedPhoto photo={a.photo} blurred={a.blurred} revealed={revealed} /> : null}
        {a.targetType === "photo" && !a.photo ? <p className="a-muted">The photo was deleted.</p> : null}
        {a.targetType === "member" ? (
          <>
            <ProfileFacts name={a.name ?? "(deleted)"} aboutMe={a.aboutMe} now />
            <ProfilePhotos photos={a.profilePhotos} blurred={a.blurred} revealed={revealed} />
          </>
        ) : null}
        {removedText ? <Facts items={[["Removed", removedText, "a-pre"]]} /> : null}
        {a.targetType === "message" ? (
          <MessageExcerpt
            excerpt={result && "excerpt" in result ? result.excerpt : null}
            seq={Number(a.targetId.split(":")[1])}
          />
        ) : null}
      </div>
      <div className="a-card">
        <h2>Notices ({a.notices.length})</h2>
        <ul>
          {a.notices.map((n) => (
            <li key={n.id}>
              {when(n.createdAt)} · {CATEGORY_LABELS[n.category]} · {n.reporterId ? "member" : "visitor"}
              {n.explanation ? (
                <>
                  : <q>{n.explanation}</q>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
      {a.a.status !== "open" ? (
        <p className="a-ok">
          This appeal was <strong>{a.a.status}</strong> {a.a.decidedAt ? `on ${when(a.a.decidedAt)}` : ""}:{" "}
          {a.a.reasons}
        </p>
      ) : mine ? (
        <p className="a-error">You took this decision: another operator decides its appeal.</p>
      ) : (
        <form method="post" className="a-card">
          <h2>Outcome</h2>
          <fieldset className="a-choices">
            <legend>Outcome</legend>
            <label>
              <input type="radio" name="outcome" value="upheld" required /> Uphold the decision
            </label>
            <label>
              <input type="radio" name="outcome" value="reversed" /> Reverse it and restore what was removed
            </label>
          </fieldset>
          <label className="a-field">
            <span>Reasons (shown to the member)</span>
            <textarea name="reasons" rows={4} required minLength={10} maxLength={2000} />
          </label>
          <button type="submit" className="a-btn">
            Decide the appeal
          </button>
        </form>
      )}
    </>
  );
}
