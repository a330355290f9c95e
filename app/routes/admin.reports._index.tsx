/** The moderation queue (moderator, admin): open cases, most severe and oldest first; the oldest case's age on top. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { openCases } from "~/models/admin/queue.server";
import { CATEGORY_LABELS, FLAG_LABELS, ageOf } from "~/components/admin/labels";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "reports";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  return { ...(await openCases(context.env.DB)), now: Math.floor(Date.now() / 1000) };
}

export default function AdminReports() {
  const { cases, oldestAt, open, now } = useLoaderData<typeof loader>();
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
      <div className="a-table-wrap">
        <table className="a-table">
          <thead>
            <tr>
              <th>Category</th>
              <th>Target</th>
              <th>Member</th>
              <th>Notices</th>
              <th>Open for</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {cases.length === 0 ? (
              <tr>
                <td colSpan={6} className="a-muted">
                  No open cases.
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
                </td>
                <td>{c.targetType}</td>
                <td>{c.name ?? c.memberId}</td>
                <td>{c.notices}</td>
                <td>{ageOf(now - c.openedAt)}</td>
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
