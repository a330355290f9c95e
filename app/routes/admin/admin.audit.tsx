/** The audit log (admin): every operator action, newest first, filtered by operator, action, target and day. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { AUDIT_PAGE, listAudit } from "~/models/admin/audit.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "audit";

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .transform((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
const filterSchema = z.object({
  operator: z.string().max(200).optional().catch(undefined),
  action: z.string().max(100).optional().catch(undefined),
  targetType: z.string().max(50).optional().catch(undefined),
  targetId: z.string().max(200).optional().catch(undefined),
  from: day.optional().catch(undefined),
  to: day.optional().catch(undefined),
  before: z.coerce.number().int().positive().optional().catch(undefined),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const params = new URL(request.url).searchParams;
  const f = filterSchema.parse(Object.fromEntries([...params].filter(([, v]) => v !== "")));
  const rows = await listAudit(
    context.env.DB,
    {
      operatorEmail: f.operator,
      action: f.action,
      targetType: f.targetType,
      targetId: f.targetId,
      from: f.from,
      to: f.to !== undefined ? f.to + 86_400 : undefined,
    },
    f.before,
  );
  const next =
    rows.length === AUDIT_PAGE
      ? new URLSearchParams(
          [...params].filter(([k]) => k !== "before").concat([["before", String(rows.at(-1)!.entry.id)]]),
        ).toString()
      : null;
  return { rows, next, query: Object.fromEntries(params) };
}

const when = (at: number) => new Date(at * 1000).toISOString().replace("T", " ").slice(0, 19);

type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

const AUDIT_COLUMNS: Column<Row>[] = [
  { header: "Time (UTC)", cell: ({ entry }) => when(entry.at) },
  {
    header: "Operator",
    cell: ({ entry, operatorEmail }) => (
      <>
        {operatorEmail ?? entry.operatorId}
        <br />
        <span className="a-badge">{entry.role}</span>
      </>
    ),
  },
  { header: "Action", cell: ({ entry }) => <code>{entry.action}</code> },
  {
    header: "Target",
    cell: ({ entry }) =>
      entry.targetType ? (
        <>
          <span className="a-muted">{entry.targetType}</span> <code>{entry.targetId}</code>
        </>
      ) : null,
  },
  { header: "Reason", cell: ({ entry }) => entry.reason },
  {
    header: "Change",
    cell: ({ entry, wallet }) => (
      <>
        {entry.before ? (
          <div>
            <span className="a-muted">before</span> <code>{JSON.stringify(entry.before)}</code>
          </div>
        ) : null}
        {entry.after ? (
          <div>
            <span className="a-muted">after</span> <code>{JSON.stringify(entry.after)}</code>
          </div>
        ) : null}
        {wallet?.refused ? (
          <div>
            <span className="a-badge a-badge-red">refused by the wallet</span>{" "}
            <span className="a-muted">the credits were spent before it applied; nothing changed</span>
          </div>
        ) : wallet && wallet.appliedAt === null ? (
          <div>
            <span className="a-badge">waiting for the wallet</span>{" "}
            <span className="a-muted">applied once it answers</span>
          </div>
        ) : null}
      </>
    ),
  },
];

export default function AdminAudit() {
  const { rows, next, query } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Audit log</h1>
      <form method="get" className="a-filters">
        <label className="a-field">
          <span>Operator e-mail</span>
          <input name="operator" defaultValue={query.operator ?? ""} />
        </label>
        <label className="a-field">
          <span>Action starts with</span>
          <input name="action" defaultValue={query.action ?? ""} placeholder="decision." />
        </label>
        <label className="a-field">
          <span>Target type</span>
          <input name="targetType" defaultValue={query.targetType ?? ""} placeholder="member" />
        </label>
        <label className="a-field">
          <span>Target id</span>
          <input name="targetId" defaultValue={query.targetId ?? ""} />
        </label>
        <label className="a-field">
          <span>From (UTC day)</span>
          <input name="from" type="date" defaultValue={query.from ?? ""} />
        </label>
        <label className="a-field">
          <span>To (UTC day)</span>
          <input name="to" type="date" defaultValue={query.to ?? ""} />
        </label>
        <button type="submit" className="a-btn">
          Filter
        </button>
      </form>
      <AdminTable columns={AUDIT_COLUMNS} rows={rows} rowKey={(r) => r.entry.id} empty="No entries." />
      {next ? (
        <p>
          <a href={`/admin/audit?${next}`}>Older entries</a>
        </p>
      ) : null}
    </>
  );
}
