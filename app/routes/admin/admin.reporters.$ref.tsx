/**
 * A reporter's record (moderator, admin; decision 225): their notices with each outcome, the share
 * without action, the hint when they cross REPORTER_HINT, and the DSA Art. 23 measure: a warning,
 * then a suspension of the processing of their notices for a set period, lifted early if need be.
 * Each step is audited and mailed to the reporter. `ref` is a member's id or a visitor's address.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
import { Flash } from "~/components/admin/Flash";
import { CATEGORY_LABELS, when } from "~/components/admin/labels";
import { readForm } from "~/lib/body.server";
import { LANGUAGE_NAMES } from "~/lib/i18n";
import { auditReason } from "~/models/admin/audit.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { linkOrigin } from "~/models/brand.server";
import { REPORTER_HINT, REPORTER_SUSPENSION_DAYS, percent, type ReporterStats } from "~/models/reporter-rules";
import {
  liftReporterSuspension,
  parseReporterRef,
  reporterRecord,
  suspendReporter,
  warnReporter,
} from "~/models/reporters.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "reports";

async function recordOf(d1: D1Database, raw: string | undefined) {
  // Remix has decoded the parameter already (an address's "@").
  const ref = parseReporterRef(raw ?? "");
  const record = ref ? await reporterRecord(d1, ref) : null;
  if (!record) throw new Response("No such reporter.", { status: 404 });
  return record;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const record = await recordOf(context.env.DB, params.ref);
  return {
    record,
    languageName: LANGUAGE_NAMES[record.who.language] ?? record.who.language,
    title: "Reporter",
  };
}

const Measure = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("warn"), reason: auditReason }),
  z.object({
    intent: z.literal("suspend"),
    reason: auditReason,
    days: z.coerce.number().int().min(REPORTER_SUSPENSION_DAYS.min).max(REPORTER_SUSPENSION_DAYS.max),
  }),
  z.object({ intent: z.literal("lift"), reason: auditReason }),
]);

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const record = await recordOf(context.env.DB, params.ref);
  const parsed = Measure.safeParse(Object.fromEntries(await readForm(request, context)));
  if (!parsed.success)
    return {
      error: `Give a reason (3 to 500 characters) and, for a suspension, its length (${REPORTER_SUSPENSION_DAYS.min} to ${REPORTER_SUSPENSION_DAYS.max} days).`,
    };
  const o = { origin: (domain: string) => linkOrigin({ domain }, context.env, request) };
  const input = parsed.data;
  const result =
    input.intent === "warn"
      ? await warnReporter(context.env, operator, record, input.reason, o)
      : input.intent === "suspend"
        ? await suspendReporter(context.env, operator, record, { days: input.days, reason: input.reason }, o)
        : await liftReporterSuspension(context.env, operator, record, input.reason, o);
  if (!result.ok) return { error: result.error };
  return {
    done:
      input.intent === "warn"
        ? "Warned: the reporter was mailed."
        : input.intent === "suspend"
          ? `Suspended for ${input.days} days: the reporter was mailed.`
          : "Lifted: the reporter's notices are processed again, and they were told.",
  };
}

const OUTCOME_LABELS = { action: "action taken", no_action: "no action", pending: "pending" } as const;

type Notice = ReturnType<typeof useLoaderData<typeof loader>>["record"]["notices"][number];

const NOTICE_COLUMNS: Column<Notice>[] = [
  { header: "When", cell: (n) => when(n.createdAt) },
  { header: "Category", cell: (n) => CATEGORY_LABELS[n.category] },
  {
    header: "About",
    cell: (n) => (
      <a href={`/admin/reports/${n.caseId}`}>
        {n.targetType} of {n.memberName ?? "?"}
      </a>
    ),
  },
  {
    header: "Outcome",
    cell: (n) => (
      <span
        className={`a-badge${n.outcome === "action" ? " a-badge-ok" : n.outcome === "no_action" ? " a-badge-red" : ""}`}
      >
        {OUTCOME_LABELS[n.outcome]}
      </span>
    ),
  },
];

function Stats({ s }: { s: ReporterStats }) {
  return (
    <>
      {s.total} {s.total === 1 ? "notice" : "notices"} · {s.action} action taken · {s.noAction} no action · {s.pending}{" "}
      pending · <strong>{percent(s.unfoundedShare)} unfounded</strong> of those decided
    </>
  );
}

export default function AdminReporter() {
  const { record: r, languageName } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const who = r.who;
  return (
    <>
      <p>
        <a href="/admin/reports">← Reports</a>
      </p>
      <h1>Reporter: {who.visitor ? `visitor ${who.email}` : `member ${who.name ?? who.id}`}</h1>
      <Flash result={result} />
      <div className="a-card">
        <p>
          {who.visitor ? "A visitor" : <a href={`/admin/members/${who.id}`}>A member</a>} · {who.email} · language{" "}
          <strong>{languageName}</strong>
        </p>
        <p>
          All time: <Stats s={r.all} />
        </p>
        <p>
          Last {REPORTER_HINT.days} days: <Stats s={r.recent} />
        </p>
        {r.hint ? (
          <p className="a-error" role="note">
            At least {REPORTER_HINT.minDecided} decided notices in {REPORTER_HINT.days} days, at least{" "}
            {percent(REPORTER_HINT.unfoundedShare)} without action: judge whether they are manifestly unfounded before a
            warning or a suspension (DSA Art. 23).
          </p>
        ) : null}
        {r.suspension ? (
          <p>
            <span className="a-badge a-badge-red">Processing suspended</span> until {when(r.suspension.endsAt)} UTC:
            their new notices are received and set aside, except about minors, intimate images without consent and
            illegal content.
          </p>
        ) : null}
      </div>

      <div className="a-card">
        <h2>Measures (DSA Art. 23)</h2>
        {r.measures.length === 0 ? <p className="a-muted">None.</p> : null}
        <ul>
          {r.measures.map((m) => (
            <li key={m.id}>
              {when(m.startsAt)} · <strong>{m.kind}</strong>
              {m.kind === "suspension" ? ` for ${m.days} days, until ${when(m.endsAt ?? 0)}` : ""} · {m.reason} ·{" "}
              {m.operator ?? m.operatorId}
              {m.liftedAt ? (
                <span className="a-muted">
                  {" "}
                  · lifted {when(m.liftedAt)}: {m.liftReason}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
        <p className="a-muted">
          The reporter is mailed each step in their language ({languageName}): write the reason in it. A suspension
          needs a warning in the last year; it ends by itself.
        </p>
        {r.suspension ? (
          <form method="post" className="a-stack" aria-label="Lift the suspension">
            <input type="hidden" name="intent" value="lift" />
            <label className="a-field">
              <span>Why it is lifted early</span>
              <input name="reason" required minLength={3} maxLength={500} />
            </label>
            <button type="submit" className="a-btn a-btn-quiet">
              Lift the suspension
            </button>
          </form>
        ) : (
          <div className="a-grid2 a-measures">
            <form method="post" className="a-stack" aria-label="Warn">
              <input type="hidden" name="intent" value="warn" />
              <label className="a-field">
                <span>Warning: why (the reporter reads it)</span>
                <textarea name="reason" rows={3} required minLength={3} maxLength={500} lang={who.language} />
              </label>
              <button type="submit" className="a-btn a-btn-quiet">
                Warn the reporter
              </button>
            </form>
            <form method="post" className="a-stack" aria-label="Suspend">
              <input type="hidden" name="intent" value="suspend" />
              <label className="a-field">
                <span>Suspension: why (the reporter reads it)</span>
                <textarea name="reason" rows={3} required minLength={3} maxLength={500} lang={who.language} />
              </label>
              <label className="a-field">
                <span>Days</span>
                <input
                  name="days"
                  type="number"
                  required
                  min={REPORTER_SUSPENSION_DAYS.min}
                  max={REPORTER_SUSPENSION_DAYS.max}
                  defaultValue={REPORTER_SUSPENSION_DAYS.proposed}
                />
              </label>
              <button type="submit" className="a-btn a-btn-danger" disabled={!r.warnedAt}>
                Suspend processing their notices
              </button>
              {!r.warnedAt ? <p className="a-muted">Warn first.</p> : null}
            </form>
          </div>
        )}
      </div>

      <div className="a-card">
        <h2>Notices ({r.notices.length})</h2>
        <AdminTable columns={NOTICE_COLUMNS} rows={r.notices} rowKey={(n) => n.id} empty="None." />
      </div>

      {r.setAside.length > 0 ? (
        <div className="a-card">
          <h2>Received while suspended, not processed ({r.setAside.length})</h2>
          <ul>
            {r.setAside.map((n) => (
              <li key={n.id}>
                {when(n.createdAt)} · {CATEGORY_LABELS[n.category]} · {n.targetType} {n.targetId}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}
