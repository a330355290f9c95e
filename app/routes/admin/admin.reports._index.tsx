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
import { CATEGORY_LABELS, FLAG_LABELS, ageOf } from "~/components/admin/labels";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "reports";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const filter = parseQueueFilter(new URL(request.url).searchParams);
  const now = Math.floor(Date.now() / 1000);
  return { ...(await listCases(context.env.DB, filter, operator.id, now)), filter, now };
}

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
        <label className="a-field">
          <span>Cases</span>
          <select name="status" defaultValue={filter.status}>
            <option value="open">Open</option>
            <option value="closed">Closed</option>
            <option value="all">All</option>
          </select>
        </label>
        <label className="a-field">
          <span>Assigned</span>
          <select name="assigned" defaultValue={filter.assigned}>
            <option value="any">Anyone</option>
            <option value="mine">Mine</option>
            <option value="unassigned">Unassigned</option>
          </select>
        </label>
        <label className="a-field">
          <span>Brand</span>
          <select name="brand" defaultValue={filter.brandId ?? ""}>
            <option value="">All brands</option>
            {brands.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
        <label className="a-field">
          <span>Category</span>
          <select name="category" defaultValue={filter.category ?? ""}>
            <option value="">All categories</option>
            {REPORT_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
        </label>
        <label className="a-field">
          <span>Opened</span>
          <select name="age" defaultValue={filter.olderThanDays ?? ""}>
            <option value="">Any time</option>
            {QUEUE_AGES.map((d) => (
              <option key={d} value={d}>
                {d === 1 ? "over a day ago" : `over ${d} days ago`}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="a-btn">
          Filter
        </button>
      </form>
      <div className="a-table-wrap">
        <table className="a-table a-cards">
          <thead>
            <tr>
              <th>Category</th>
              <th>Target</th>
              <th>Member</th>
              <th>Brand</th>
              <th>Notices</th>
              <th>{filter.status === "open" ? "Open for" : "Opened"}</th>
              <th>Assigned</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {cases.length === 0 ? (
              <tr>
                <td colSpan={8} className="a-muted">
                  {filter.status === "open" ? "No open cases." : "No cases."}
                </td>
              </tr>
            ) : null}
            {cases.map((c) => (
              <tr key={c.id}>
                <td>
                  <span className={`a-badge${c.severity <= 1 ? " a-badge-red" : ""}`}>
                    {CATEGORY_LABELS[c.category]}
                  </span>
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
                </td>
                <td data-label="Target">{c.targetType}</td>
                <td data-label="Member">{c.name ?? c.memberId}</td>
                <td data-label="Brand">{c.brand ?? ""}</td>
                <td data-label="Notices">{c.notices}</td>
                <td data-label={filter.status === "open" ? "Open for" : "Opened"}>{ageOf(now - c.openedAt)}</td>
                <td data-label="Assigned">{c.assignee ?? <span className="a-muted">nobody</span>}</td>
                <td>
                  <a href={`/admin/reports/${c.id}`}>Open</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
