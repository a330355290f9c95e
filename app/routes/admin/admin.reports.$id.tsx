/**
 * One case (moderator, admin): the target, its notices, the member's earlier decisions, the
 * reported message in context (an audited POST), and the decision form (rule and facts required).
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { readForm } from "~/lib/body.server";
import { paragraph } from "~/lib/text";
import { linkOrigin } from "~/models/brand.server";
import { mayOpen, requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { assignCase, caseDetail, messageExcerpt, revealPhotos } from "~/models/admin/queue.server";
import { ESCALATION_RECIPIENTS, caseEvidence, escalate } from "~/models/admin/evidence.server";
import { resubmitStatement } from "~/models/dsa-submit.server";
import { reporterHref, reporterSummaries } from "~/models/reporters.server";
import { percent } from "~/models/reporter-rules";
import { LANGUAGE_NAMES } from "~/lib/i18n";
import { logError } from "~/lib/log.server";
import { DecisionState } from "~/components/admin/DecisionState";
import { EvidenceCard } from "~/components/admin/EvidenceCard";
import {
  DECISION_ACTIONS,
  SUSPEND_MAX_DAYS,
  TERMS_RULES,
  actionFits,
  decide,
  hasDays,
} from "~/models/moderation.server";
import { groundOf } from "~/models/admin/transparency.server";
import { LEGAL_GROUNDS, isLegalGround, personalDataIn } from "~/models/dsa-database";
import { ACTION_LABELS, CATEGORY_LABELS, FLAG_LABELS, RULE_LABELS, when } from "~/components/admin/labels";
import { MessageExcerpt, ProfileFacts, ProfilePhotos, ReportedPhoto } from "~/components/admin/CaseContent";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "reports";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const c = await caseDetail(context.env.DB, params.id ?? "");
  if (!c) throw new Response("No such case.", { status: 404 });
  // Evidence and escalations: the admin's only (decision 218); no other role's page carries them.
  const [evidence, reporters] = await Promise.all([
    mayOpen(operator.role, "evidence") ? caseEvidence(context.env.DB, c.c.id) : null,
    // Each reporter's record in brief, and the hint of DSA Art. 23 (decision 225).
    reporterSummaries(context.env.DB, c.notices),
  ]);
  return {
    c,
    reporters: Object.fromEntries(reporters),
    me: operator.id,
    evidence,
    recipients: ESCALATION_RECIPIENTS,
    languageName: LANGUAGE_NAMES[c.language] ?? c.language,
    actions: DECISION_ACTIONS.filter((a) => actionFits(a, c.c.targetType)),
    rules: TERMS_RULES,
    legalGrounds: Object.entries(LEGAL_GROUNDS).map(([key, g]) => ({ key, ...g })),
  };
}

const DecisionForm = z.object({
  intent: z.literal("decide"),
  action: z.enum(DECISION_ACTIONS),
  rule: z.enum(TERMS_RULES).or(z.literal("")),
  facts: paragraph(z.string().min(10).max(2000)),
  days: z.coerce.number().int().min(1).max(SUSPEND_MAX_DAYS).optional().catch(undefined),
  publicFacts: paragraph(z.string().max(2000)).catch(""),
  legalGround: z.string().max(40).catch(""),
  publicOk: z.literal("1").optional().catch(undefined),
  photoId: z
    .string()
    .regex(/^[\w-]{1,64}$/)
    .optional()
    .catch(undefined),
});

const EscalationForm = z.object({
  recipientType: z.enum(ESCALATION_RECIPIENTS),
  recipient: z.string().trim().min(2).max(200),
  reference: z.string().trim().max(200).catch(""),
  /** datetime-local, taken as UTC (the console shows UTC). */
  reportedAt: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/),
});

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const caseId = params.id ?? "";
  const form = Object.fromEntries(await readForm(request, context));
  if (form.intent === "reveal") {
    if (!(await caseDetail(context.env.DB, caseId))) throw new Response("No such case.", { status: 404 });
    await revealPhotos(context.env.DB, operator, { type: "case", id: caseId });
    return { revealed: true };
  }
  if (form.intent === "assign" || form.intent === "unassign") {
    await assignCase(context.env.DB, operator, caseId, form.intent === "assign");
    return redirect(`/admin/reports/${caseId}`);
  }
  if (form.intent === "resubmit") {
    const decisionId = String(form.decisionId ?? "");
    if (!/^[\w-]{1,64}$/.test(decisionId) || !(await resubmitStatement(context.env, operator, decisionId)))
      return { error: "That statement is neither refused nor failed: nothing to send again." };
    return redirect(`/admin/reports/${caseId}`);
  }
  if (form.intent === "escalate") {
    if (!mayOpen(operator.role, "evidence")) throw new Response("Forbidden", { status: 403 });
    const e = EscalationForm.safeParse(form);
    const at = e.success ? Date.parse(`${e.data.reportedAt}Z`) / 1000 : NaN;
    if (!e.success || !Number.isFinite(at) || at > Date.now() / 1000 + 300)
      return {
        escalateError:
          "Say to whom (type and name, up to 200 characters) and when (not in the future) it was reported.",
      };
    if (
      !(await escalate(context.env.DB, operator, caseId, {
        recipientType: e.data.recipientType,
        recipient: e.data.recipient,
        reference: e.data.reference,
        reportedAt: Math.floor(at),
      }))
    )
      throw new Response("No such case.", { status: 404 });
    return redirect(`/admin/reports/${caseId}`);
  }
  if (form.intent === "excerpt") {
    const c = await caseDetail(context.env.DB, caseId);
    const m = c && c.c.targetType === "message" ? /^(.+):(\d+)$/.exec(c.c.targetId) : null;
    if (!c || !m) throw new Response("No message in this case.", { status: 404 });
    return {
      excerpt: await messageExcerpt(context.env, operator, caseId, { conversationId: m[1]!, seq: Number(m[2]) }),
      seq: Number(m[2]),
    };
  }
  const parsed = DecisionForm.safeParse(form);
  if (!parsed.success)
    return {
      error: "Choose a decision and write the facts (at least 10 characters).",
      typed: {
        facts: String(form.facts ?? "").slice(0, 2000),
        publicFacts: String(form.publicFacts ?? "").slice(0, 2000),
      },
    };
  const input = parsed.data;
  const typed = { ...input, days: input.days ?? null };
  if (input.action !== "no_action" && !input.rule)
    return { error: "A restriction needs the rule that was broken.", typed };
  // The statement for the EU Transparency Database (decision 205): its own facts, the legal provision.
  if (input.action !== "no_action" && input.publicFacts.trim().length < 10)
    return { error: "Write the public facts for the Transparency Database (at least 10 characters).", typed };
  if (input.rule && groundOf(input.rule) === "illegal" && !isLegalGround(input.legalGround))
    return { error: "Illegal content needs the legal provision it breaks: choose one.", typed };
  if (input.legalGround && !isLegalGround(input.legalGround)) return { error: "Choose a listed provision.", typed };
  const c = await caseDetail(context.env.DB, caseId);
  const personal = personalDataIn(input.publicFacts, [c?.name ?? "", c?.email?.split("@")[0] ?? ""]);
  if (personal.length > 0 && !input.publicOk)
    return {
      error: `The public facts seem to contain personal data (${personal.join(", ")}). Rewrite them, or tick the box if they do not.`,
      typed,
      personal,
    };
  if (hasDays(input.action) && !input.days)
    return { error: "A suspension or messaging restriction needs its length in days (1 to 365).", typed };
  // A failure past this point (the database, the mail) keeps what was typed: the form comes back with it.
  const result = await decide(
    context.env,
    operator,
    caseId,
    {
      action: input.action,
      rule: input.rule,
      facts: input.facts,
      days: input.days ?? null,
      photoId: input.photoId,
      publicFacts: input.action === "no_action" ? "" : input.publicFacts.trim(),
      legalGround: input.rule && groundOf(input.rule) === "illegal" ? input.legalGround : "",
    },
    {
      origin: (domain) => linkOrigin({ domain }, context.env, request),
    },
  ).catch((error: unknown) => {
    logError("moderation: decision failed", error, { case: caseId });
    return { ok: false as const, error: "failed" as const };
  });
  if (!result.ok) {
    return {
      typed,
      error:
        result.error === "closed"
          ? "This case was already decided."
          : result.error === "failed"
            ? "The decision could not be saved (a server error). Nothing you typed is lost: check the case and try again."
            : result.error === "action"
              ? "That decision does not fit this target."
              : result.error === "gone"
                ? "That content is no longer there (choose the photo for a photo removal)."
                : "No such case.",
    };
  }
  return redirect("/admin/reports");
}

/** A reporter's record in brief under their notice: outcomes, share unfounded, the hint, a suspension. */
function ReporterLine({
  n,
  s,
}: {
  n: { reporterId: string | null; reporterEmail: string | null };
  s?: {
    all: { total: number; action: number; noAction: number; pending: number; unfoundedShare: number };
    hint: boolean;
    suspendedUntil: number | null;
  };
}) {
  if (!s) return null;
  return (
    <div className="a-muted">
      Reporter&apos;s record: {s.all.total} {s.all.total === 1 ? "notice" : "notices"} · {s.all.action} action taken ·{" "}
      {s.all.noAction} no action · {s.all.pending} pending · {percent(s.all.unfoundedShare)} unfounded{" "}
      {s.hint ? <span className="a-badge a-badge-red">often unfounded lately</span> : null}{" "}
      {s.suspendedUntil ? (
        <span className="a-badge a-badge-red">processing suspended until {when(s.suspendedUntil)}</span>
      ) : null}{" "}
      <a href={reporterHref(n)}>Open the record</a>
    </div>
  );
}

export default function AdminCase() {
  const { c, actions, rules, legalGrounds, me, evidence, recipients, languageName, reporters } =
    useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const open = c.c.status === "open";
  const revealed = !!(result && "revealed" in result);
  // What the moderator typed comes back with an error, so nothing typed is lost.
  const typed: Partial<Record<string, string | number | null>> = (result && "typed" in result && result.typed) || {};
  const str = (k: string) => (typed[k] == null ? undefined : String(typed[k]));
  return (
    <>
      <p>
        <a href="/admin/reports">← Reports</a>
      </p>
      <h1>
        {
          CATEGORY_LABELS[
            ["minor", "ncii", "illegal", "scam", "harassment", "fake", "spam", "other"][c.c.severity] ?? "other"
          ]
        }
        : {c.c.targetType} of {c.name}
      </h1>
      {result && "error" in result ? (
        <p className="a-error" role="alert">
          {result.error}
        </p>
      ) : null}
      <p className="a-muted">
        {c.brandName} · {c.c.status === "open" ? "open" : `closed ${c.c.closedAt ? when(c.c.closedAt) : ""}`} ·{" "}
        {c.assignee ? <>assigned to {c.assignee}</> : "unassigned"}{" "}
        {open ? (
          <form method="post" className="a-inline">
            <input type="hidden" name="intent" value={c.c.assignedTo === me ? "unassign" : "assign"} />
            <button type="submit" className="a-btn a-btn-quiet">
              {c.c.assignedTo === me ? "Give back" : "Take this case"}
            </button>
          </form>
        ) : null}
      </p>
      <div className="a-card">
        <h2>Target</h2>
        <p>
          Member <strong>{c.name}</strong> ({c.email}) · language <strong>{languageName}</strong>{" "}
          <span>· profile {c.profileStatus}</span>
          {c.suspendedUntil ? ` · suspended until ${when(c.suspendedUntil)}` : ""}
          {c.messagingRestrictedUntil ? ` · messaging restricted until ${when(c.messagingRestrictedUntil)}` : ""}
        </p>
        {c.c.targetType === "member" ? (
          <>
            <ProfileFacts name={c.name} aboutMe={c.aboutMe} />
            <h3>Photos of the profile</h3>
            <ProfilePhotos photos={c.profilePhotos} blurred={c.blurred} revealed={revealed} />
          </>
        ) : null}
        {c.c.targetType === "photo" ? (
          c.photo ? (
            <ReportedPhoto photo={c.photo} blurred={c.blurred} revealed={revealed} />
          ) : (
            <p>
              Photo <code>{c.c.targetId}</code> (already gone)
            </p>
          )
        ) : null}
        {c.c.flaggedBy ? (
          <div className="a-flags">
            <p>
              <span className="a-badge a-badge-red">Flagged by automated means</span> A decision on this case tells the
              member that automated means detected it. Signals never restrict anyone by themselves.
            </p>
            <ul>
              {c.flags.map((f) => (
                <li key={f.rule}>
                  {when(f.createdAt)} · <strong>{FLAG_LABELS[f.rule] ?? f.rule}</strong>
                  {f.detail ? <span className="a-muted"> ({f.detail})</span> : null}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {c.c.targetType === "message" ? (
          <MessageExcerpt
            excerpt={result && "excerpt" in result ? result.excerpt : null}
            seq={Number(c.c.targetId.split(":")[1])}
          />
        ) : null}
      </div>
      <div className="a-card">
        <h2>Notices ({c.notices.length})</h2>
        {c.notices.length === 0 ? <p className="a-muted">None: an automated flag opened this case.</p> : null}
        <ul>
          {c.notices.map((n) => (
            <li key={n.id}>
              {when(n.createdAt)} · {CATEGORY_LABELS[n.category]} ·{" "}
              {n.reporterId ? `member ${n.reporterName ?? n.reporterId}` : `visitor ${n.reporterEmail}`}
              {n.goodFaith ? " · good faith confirmed" : ""}
              {n.explanation ? (
                <>
                  : <q>{n.explanation}</q>
                </>
              ) : null}
              <ReporterLine n={n} s={reporters[n.reporterId ?? n.reporterEmail ?? ""]} />
            </li>
          ))}
        </ul>
      </div>
      <div className="a-card">
        <h2>Earlier decisions about this member</h2>
        {c.earlier.length === 0 ? (
          <p className="a-muted">None.</p>
        ) : (
          <ul>
            {c.earlier.map((d) => (
              <li key={d.id}>
                {when(d.createdAt)} · <DecisionState d={d} /> · {d.rule ? RULE_LABELS[d.rule] : ""} · {d.facts}
                {d.dsa ? (
                  <div className="a-muted">
                    Transparency Database:{" "}
                    <span
                      className={`a-badge${d.dsa.status === "refused" || d.dsa.status === "failed" ? " a-badge-red" : d.dsa.status === "sent" ? " a-badge-ok" : ""}`}
                    >
                      {d.dsa.status === "failed" ? "failed: the tries ran out" : d.dsa.status}
                    </span>
                    {d.dsa.uuid ? <> · {d.dsa.uuid}</> : null}
                    {d.dsa.status !== "sent" && (d.dsa.attempts ?? 0) > 0 ? ` · ${d.dsa.attempts} tries` : ""}
                    {d.dsa.error && d.dsa.status !== "sent" ? <> · {d.dsa.error}</> : null}
                    {d.dsa.status === "refused" || d.dsa.status === "failed" ? (
                      <form method="post" className="a-inline">
                        <input type="hidden" name="intent" value="resubmit" />
                        <input type="hidden" name="decisionId" value={d.id} />{" "}
                        <button type="submit" className="a-btn a-btn-quiet">
                          Send again
                        </button>
                      </form>
                    ) : null}
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>
      {open ? (
        <form method="post" className="a-card">
          <h2>Decision</h2>
          <input type="hidden" name="intent" value="decide" />
          <label className="a-field">
            <span>Decision</span>
            <select name="action" required defaultValue={str("action") ?? ""}>
              <option value="" disabled>
                Choose
              </option>
              {actions.map((a) => (
                <option key={a} value={a}>
                  {ACTION_LABELS[a]}
                </option>
              ))}
            </select>
          </label>
          {c.c.targetType === "member" && c.profilePhotos.length > 0 ? (
            <label className="a-field">
              <span>Photo (for a photo removal)</span>
              <select name="photoId" defaultValue="">
                <option value="">None</option>
                {c.profilePhotos.map((p, i) => (
                  <option key={p.id} value={p.id}>
                    Photo {i + 1} ({p.review}
                    {p.isPrivate ? ", private" : ""})
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <label className="a-field">
            <span>Days (suspension or messaging restriction)</span>
            <input name="days" type="number" min={1} max={365} defaultValue={str("days")} />
          </label>
          <label className="a-field">
            <span>Rule broken (section of the terms)</span>
            <select name="rule" defaultValue={str("rule") ?? ""}>
              <option value="">None (no action)</option>
              {rules.map((r) => (
                <option key={r} value={r}>
                  {RULE_LABELS[r]}
                </option>
              ))}
            </select>
          </label>
          <label className="a-field">
            <span>Legal provision (illegal content: minimum age, consent, illegal content)</span>
            <select name="legalGround" defaultValue={str("legalGround") ?? ""}>
              <option value="">None (a breach of the terms only)</option>
              {legalGrounds.map((g) => (
                <option key={g.key} value={g.key}>
                  {CATEGORY_LABELS[g.category]}: {g.text}
                </option>
              ))}
            </select>
          </label>
          <label className="a-field">
            <span>
              Facts (shown to the member in the statement of reasons, in <strong>{languageName}</strong>: write them in
              it)
            </span>
            <textarea
              name="facts"
              rows={4}
              required
              minLength={10}
              maxLength={2000}
              lang={c.language}
              defaultValue={str("facts")}
            />
          </label>
          <label className="a-field">
            <span>Public facts (published in the EU Transparency Database: no names, e-mail addresses, numbers)</span>
            <textarea name="publicFacts" rows={3} maxLength={2000} defaultValue={str("publicFacts")} />
          </label>
          {result && "personal" in result ? (
            <label className="a-check">
              <input type="checkbox" name="publicOk" value="1" /> The public facts contain no personal data
            </label>
          ) : null}
          <button type="submit" className="a-btn">
            Decide
          </button>
        </form>
      ) : (
        <p className="a-ok">This case is closed.</p>
      )}
      {evidence ? (
        <EvidenceCard
          items={evidence.items}
          escalations={evidence.escalations}
          recipients={recipients}
          error={result && "escalateError" in result ? result.escalateError : undefined}
        />
      ) : null}
    </>
  );
}
