/**
 * Transparency (moderator, admin; decision 176): per month, notices by category, decisions by ground
 * and category, median time from the first notice to the decision, appeals and reversals, automated
 * flags by rule; the month's statements of reasons as a Transparency Database JSON file
 * (admin.transparency.export.ts, an audited POST); the statements whose tries to reach the database
 * ran out (decision 225), each linked to its case to be sent again.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { nowS } from "~/lib/dates";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { lastMonths, transparencyReport } from "~/models/admin/transparency.server";
import { failedStatements } from "~/models/dsa-submit.server";
import { REPORT_CATEGORIES } from "~/models/moderation.server";
import { FLAG_RULES } from "~/models/signals.server";
import { AdminTable, Facts, type Column, type Fact } from "~/components/admin/AdminTable";
import { CATEGORY_LABELS, FLAG_LABELS, ageOf } from "~/components/admin/labels";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "transparency";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const now = nowS();
  const [months, failed] = await Promise.all([
    transparencyReport(context.env.DB, now),
    failedStatements(context.env.DB),
  ]);
  const asked = new URL(request.url).searchParams.get("month") ?? "";
  const month = lastMonths(now).includes(asked) ? asked : months[0]!.month;
  return { months, month, failed, title: "Transparency" };
}

/** A card with a label → count list. */
function Counts({ title, rows }: { title: string; rows: [string, number][] }) {
  return (
    <div className="a-card">
      <h3>{title}</h3>
      <Facts rows items={rows.map(([label, n]): Fact => [label, n, "a-num"])} />
    </div>
  );
}

const duration = (s: number | null) => (s === null ? "–" : ageOf(s));

type Month = ReturnType<typeof useLoaderData<typeof loader>>["months"][number];
/** The months' columns; a month's notices as a bar against the busiest month's. */
const monthColumns = (max: number): Column<Month>[] => [
  { header: "Month", cell: (x) => <a href={`/admin/transparency?month=${x.month}`}>{x.month}</a> },
  {
    header: "Notices",
    cell: (x) => (
      <span>
        <span className="a-bar" aria-hidden="true">
          <svg width="60" height="10" viewBox="0 0 60 10">
            <rect width={Math.round((60 * x.notices) / max)} height="10" />
          </svg>
        </span>{" "}
        {x.notices}
      </span>
    ),
  },
  { header: "Decisions", cell: (x) => x.decisions },
  { header: "Median to decision", cell: (x) => duration(x.medianSeconds) },
  { header: "Appeals", cell: (x) => x.appeals },
  { header: "Reversals", cell: (x) => x.reversals },
  { header: "Flags", cell: (x) => x.flags },
];

export default function AdminTransparency() {
  const { months, month, failed } = useLoaderData<typeof loader>();
  const m = months.find((x) => x.month === month)!;
  const max = Math.max(1, ...months.map((x) => x.notices));
  return (
    <>
      <h1>Transparency</h1>
      {failed.count > 0 ? (
        <div className="a-card" id="failed">
          <h2>
            <span className="a-badge a-badge-red">{failed.count}</span> statements failed to reach the Transparency
            Database
          </h2>
          <p className="a-muted">Their tries ran out. Open the case and send each again once the database answers.</p>
          <ul>
            {failed.recent.map((f) => (
              <li key={f.decisionId}>
                <a href={`/admin/reports/${f.caseId}`}>Case {f.caseId}</a> · failed, send again
                {f.error ? <span className="a-muted"> · {f.error}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="a-muted">
        Counts per calendar month (UTC). Grounds: a breach of the rules on minors, consent or the law is illegal
        content; every other rule is the terms. Signals only flag; every decision is taken by a person.
      </p>
      <AdminTable
        className="a-nowrap"
        columns={monthColumns(max)}
        rows={months}
        rowKey={(x) => x.month}
        rowClass={(x) => (x.month === month ? "a-current" : undefined)}
        empty="No months yet."
      />

      <h2>{month}</h2>
      <div className="a-grid2">
        <Counts
          title={`Notices by category (${m.notices})`}
          rows={REPORT_CATEGORIES.map((c) => [CATEGORY_LABELS[c]!, m.noticesByCategory[c] ?? 0])}
        />
        <Counts
          title={`Automated flags by rule (${m.flags})`}
          rows={FLAG_RULES.map((r) => [FLAG_LABELS[r]!, m.flagsByRule[r] ?? 0])}
        />
      </div>
      <div className="a-card">
        <h3>
          Decisions by ground and category ({m.decisions}, {m.automated} on automated flags)
        </h3>
        <AdminTable
          columns={[
            { header: "Category", cell: (c) => CATEGORY_LABELS[c] },
            { header: "Illegal content", num: true, cell: (c) => m.decisionsByCategory[c]?.illegal ?? 0 },
            { header: "Terms", num: true, cell: (c) => m.decisionsByCategory[c]?.terms ?? 0 },
            { header: "No action", num: true, cell: (c) => m.decisionsByCategory[c]?.none ?? 0 },
          ]}
          rows={REPORT_CATEGORIES}
          rowKey={(c) => c}
          empty={null}
        />
        <p className="a-muted">
          Median time from the first notice (or the flag) to the decision: <strong>{duration(m.medianSeconds)}</strong>.
          Appeals: {m.appeals}, reversed: {m.reversals}.
        </p>
      </div>
      <form method="post" action="/admin/transparency/export" className="a-card">
        <h3>Statements of reasons</h3>
        <p className="a-muted">
          Every restriction decided in {month}, in the fields of the EU DSA Transparency Database (statement of reasons
          schema), as one JSON file. The download is written to the audit log.
        </p>
        <input type="hidden" name="month" value={month} />
        <button type="submit" className="a-btn">
          Download {month} as JSON
        </button>
      </form>
    </>
  );
}
