/**
 * Mollie's settlements of a month (finance, admin), reconciled against our payments, refunds and
 * chargebacks (decision 209): each payout with its sums and fees, and every line that is not as ours.
 * The daily cron imports last month in the first days of a month; "Import now" does it on demand (audited).
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { readForm } from "~/lib/body.server";
import { nowS } from "~/lib/dates";
import { getDb } from "../../../db/client";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { auditStatement } from "~/models/admin/audit.server";
import { importSettlements, previousMonth, settlementsOfMonth } from "~/models/settlements.server";
import { AdminTable, Facts, type Column } from "~/components/admin/AdminTable";
import { when } from "~/components/admin/labels";
import { money } from "~/components/admin/money";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "payments";

const MONTH = /^(19|20)\d{2}-(0[1-9]|1[0-2])$/;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const params = new URL(request.url).searchParams;
  const asked = params.get("month") ?? "";
  const month = MONTH.test(asked) ? asked : previousMonth(nowS());
  const imported = params.get("imported");
  return {
    title: "Settlements",
    month,
    settlements: await settlementsOfMonth(context.env.DB, month),
    notice:
      imported === "none"
        ? "No company has a settlement source (an access_ key, or MOLLIE_ACCESS_TOKEN_<account>), so nothing was imported."
        : imported === "failed"
          ? "Mollie could not be asked; nothing changed. Try again later."
          : imported
            ? `Imported: ${imported}.`
            : null,
  };
}

const ImportForm = z.object({ month: z.string().regex(MONTH) });

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const parsed = ImportForm.safeParse(Object.fromEntries(await readForm(request, context)));
  if (!parsed.success) throw new Response("Choose a month (YYYY-MM).", { status: 400 });
  const { month } = parsed.data;
  const result = await importSettlements(context, month);
  await auditStatement(getDb(context.env.DB), operator, {
    action: "settlement.import",
    targetType: "month",
    targetId: month,
    after: result,
  });
  const imported = !result.ok
    ? result.reason === "no-source"
      ? "none"
      : "failed"
    : `${result.settlements} settlements, ${result.lines} lines, ${result.notOk} not as ours`;
  throw redirect(`/admin/settlements?${new URLSearchParams({ month, imported })}`);
}

type Problem = ReturnType<typeof useLoaderData<typeof loader>>["settlements"][number]["problems"][number];

const problemColumns = (currency: string): Column<Problem>[] => [
  { header: "Kind", cell: (l) => l.kind },
  { header: "Mollie id", cell: (l) => <code>{l.providerRef}</code> },
  {
    header: "Our payment",
    cell: (l) =>
      l.paymentId ? (
        <a href={`/admin/payments/${l.paymentId}`}>
          <code>{l.paymentId}</code>
        </a>
      ) : (
        "– (none of ours)"
      ),
  },
  { header: "Check", cell: (l) => <span className="a-badge a-badge-red">{l.state}</span> },
  { header: "Settled", num: true, cell: (l) => money(l.settledCents, currency) },
  { header: "We expect", num: true, cell: (l) => (l.expectedCents === null ? "–" : money(l.expectedCents, currency)) },
];

export default function AdminSettlements() {
  const { month, settlements, notice } = useLoaderData<typeof loader>();
  return (
    <>
      <p>
        <a href="/admin/payments">← Payments</a>
      </p>
      <h1>Mollie settlements</h1>
      {notice ? (
        <p className="a-ok" role="status">
          {notice}
        </p>
      ) : null}
      <div className="a-filters">
        <form method="get" className="a-filters" aria-label="Choose a month">
          <label className="a-field">
            <span>Month</span>
            <input name="month" type="month" required defaultValue={month} pattern="\d{4}-\d{2}" />
          </label>
          <button type="submit" className="a-btn a-btn-quiet">
            Show
          </button>
        </form>
        <form method="post" className="a-filters">
          <input type="hidden" name="month" value={month} />
          <button type="submit" className="a-btn">
            Import {month} from Mollie now
          </button>
        </form>
      </div>
      {settlements.length === 0 ? <p className="a-muted">No settlements imported for {month}.</p> : null}
      {settlements.map((s) => (
        <div className="a-card" key={s.id} data-testid="settlement">
          <h2>
            <code>{s.id}</code> {s.reference ? `· ${s.reference}` : ""} · {s.status}
          </h2>
          <Facts
            rows
            items={[
              [
                "Paid out",
                `${money(s.amountCents, s.currency)}${s.settledAt ? ` on ${when(s.settledAt)}` : " (not yet)"}`,
              ],
              ["Payments", `${money(s.payments.cents, s.currency)} (${s.payments.count})`],
              ["Refunds", `${money(s.refunds.cents, s.currency)} (${s.refunds.count})`],
              ["Chargebacks", `${money(s.chargebacks.cents, s.currency)} (${s.chargebacks.count})`],
              ["Mollie's fees", `${money(-s.feesCents, s.currency)} (VAT ${money(s.feesVatCents, s.currency)})`],
              [
                "Not explained by these",
                money(s.unexplainedCents, s.currency),
                s.unexplainedCents === 0 ? undefined : "a-error",
              ],
            ]}
          />
          {s.problems.length === 0 ? (
            <p className="a-ok">Every line is as our record.</p>
          ) : (
            <AdminTable
              caption="Lines not as our record"
              columns={problemColumns(s.currency)}
              rows={s.problems}
              rowKey={(l) => l.providerRef}
              empty={null}
            />
          )}
        </div>
      ))}
    </>
  );
}
