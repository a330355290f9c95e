/**
 * The moderation queue (moderator, admin; decision 218), shared by the team: open cases most severe
 * and oldest first, or closed ones newest first; search (case id, e-mail, name), brand, category,
 * age and assignment ("mine", "unassigned") filters, in a GET form that works without JavaScript.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { QUEUE_AGES, listCases, parseQueueFilter } from "~/models/admin/queue.server";
import { REPORT_CATEGORIES } from "~/models/moderation.server";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
import { Choice } from "~/components/admin/Choice";
import { CATEGORY_LABELS, FLAG_LABELS, ageOf } from "~/components/admin/labels";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "reports";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const filter = parseQueueFilter(new URL(request.url).searchParams);
  const now = Math.floor(Date.now() / 1000);
  return { ...(await listCases(context.env.DB, filter, operator.id, now)), filter, now };
}

type CaseRow = ReturnType<typeof useLoaderData<typeof loader>>["cases"][number];
/** The queue's columns: how long a case is open (or when it opened), counted to now. */
const caseColumns = (now: number, open: boolean): Column<CaseRow>[] => [
  {
    header: "Category",
    cell: (c) => (
      <span>
        <span className={`a-badge${c.severity <= 1 ? " a-badge-red" : ""}`}>{CATEGORY_LABELS[c.category]}</span>
        {c.flaggedBy ? (
          <>
            {" "}
            <span className="a-badge">flag: {FLAG_LABELS[c.flaggedBy] ?? c.flaggedBy}</span>
          </>
        ) : null}
        {c.status === "closed" ? (
          <>
            {" "}
            <span className="a-badge a-badge-ok">closed</span>
          </>
        ) : null}
      </span>
    ),
  },
  { header: "Target", cell: (c) => c.targetType },
  { header: "Member", cell: (c) => c.name ?? c.memberId },
  { header: "Brand", cell: (c) => c.brand ?? "" },
  { header: "Notices", cell: (c) => c.notices },
  { header: open ? "Open for" : "Opened", cell: (c) => ageOf(now - c.openedAt) },
  { header: "Assigned", cell: (c) => c.assignee ?? <span className="a-muted">nobody</span> },
  { header: "", cell: (c) => <a href={`/admin/reports/${c.id}`}>Open</a> },
];

export default function AdminReports() {
  const { cases, oldestAt, open, now, filter, brands } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Reports</h1>
      <p className="a-muted">
        {open} open {open === 1 ? "case" : "cases"}
        {oldestAt ? (
          <>
            {" "}
            · oldest open for <strong>{ageOf(now - oldestAt)}</strong>
          </>
        ) : null}
      </p>
      <form method="get" className="a-filters">
        <label className="a-field">
          <span>Search</span>
          <input name="q" defaultValue={filter.q} placeholder="case id, e-mail or name" maxLength={100} />
        </label>
        <Choice
          label="Cases"
          name="status"
          value={filter.status}
          any={null}
          options={[
            ["open", "Open"],
            ["closed", "Closed"],
            ["all", "All"],
          ]}
        />
        <Choice
          label="Assigned"
          name="assigned"
          value={filter.assigned}
          any={null}
          options={[
            ["any", "Anyone"],
            ["mine", "Mine"],
            ["unassigned", "Unassigned"],
          ]}
        />
        <Choice
          label="Brand"
          name="brand"
          value={filter.brandId}
          any="All brands"
          options={brands.map((b) => [b.id, b.name])}
        />
        <Choice
          label="Category"
          name="category"
          value={filter.category}
          any="All categories"
          options={REPORT_CATEGORIES.map((c) => [c, CATEGORY_LABELS[c]!])}
        />
        <Choice
          label="Opened"
          name="age"
          value={filter.olderThanDays}
          any="Any time"
          options={QUEUE_AGES.map((d) => [d, d === 1 ? "over a day ago" : `over ${d} days ago`])}
        />
        <button type="submit" className="a-btn">
          Filter
        </button>
      </form>
      <AdminTable
        columns={caseColumns(now, filter.status === "open")}
        rows={cases}
        rowKey={(c) => c.id}
        empty={filter.status === "open" ? "No open cases." : "No cases."}
      />
    </>
  );
}
