/** Appeals (moderator, admin; DSA Art. 20, decision 174): open appeals oldest first, then the latest decided ones. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { listAppeals } from "~/models/appeals.server";
import { ACTION_LABELS, ageOf, when } from "~/components/admin/labels";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "appeals";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const [open, decided] = await Promise.all([
    listAppeals(context.env.DB, "open"),
    listAppeals(context.env.DB, "decided"),
  ]);
  return { open, decided, now: Math.floor(Date.now() / 1000) };
}

type Appeal = ReturnType<typeof useLoaderData<typeof loader>>["open"][number];

const appealColumns = (now: number): Column<Appeal>[] => [
  { header: "Decision", cell: (a) => <span className="a-badge">{ACTION_LABELS[a.action]}</span> },
  // The member's name opens the appeal: the link stays visible on a phone.
  { header: "Member", cell: (a) => <a href={`/admin/appeals/${a.id}`}>{a.name ?? "(deleted member)"}</a> },
  { header: "Decided", cell: (a) => when(a.decisionAt) },
  { header: "Waiting for", cell: (a) => ageOf(now - a.createdAt) },
];

export default function AdminAppeals() {
  const { open, decided, now } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Appeals</h1>
      <p className="a-muted">
        {open.length} open {open.length === 1 ? "appeal" : "appeals"}, oldest first. Decided by an operator who did not
        take the decision; never automatically.
      </p>
      <AdminTable columns={appealColumns(now)} rows={open} rowKey={(a) => a.id} empty="No open appeals." />
      <h2>Recently decided</h2>
      {decided.length === 0 ? (
        <p className="a-muted">None yet.</p>
      ) : (
        <ul>
          {decided.map((a) => (
            <li key={a.id}>
              <a href={`/admin/appeals/${a.id}`}>
                {a.decidedAt ? when(a.decidedAt) : ""} · {ACTION_LABELS[a.action]} · {a.name ?? "(deleted)"}
              </a>{" "}
              · <strong>{a.status}</strong>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
