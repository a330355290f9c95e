/** Payments (finance, admin): filter by brand, status, method, country, day and amount; newest first, keyset-paged; the accounting export. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import {
  PAYMENT_STATUSES,
  amountCentsSchema,
  listPayments,
  paymentFilterOptions,
  providerAlertCount,
  type RefundState,
} from "~/models/admin/payments.server";
import { brandsById } from "~/models/brand.server";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
import { Choice } from "~/components/admin/Choice";
import { when } from "~/components/admin/labels";
import { money, statusBadge } from "~/components/admin/money";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "payments";

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .transform((d) => Date.parse(`${d}T00:00:00Z`) / 1000)
  .refine((s) => Number.isFinite(s));
const filterSchema = z.object({
  brand: z.coerce.number().int().positive().optional().catch(undefined),
  status: z.enum(PAYMENT_STATUSES).optional().catch(undefined),
  method: z
    .string()
    .regex(/^[a-z_]{1,32}$/)
    .optional()
    .catch(undefined),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional()
    .catch(undefined),
  from: day.optional().catch(undefined),
  to: day.optional().catch(undefined),
  min: amountCentsSchema.optional().catch(undefined),
  max: amountCentsSchema.optional().catch(undefined),
  alert: z.literal("1").optional().catch(undefined),
  after: z
    .string()
    .regex(/^\d{1,12}\.[A-Za-z0-9_-]{1,64}$/)
    .optional()
    .catch(undefined),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const params = new URL(request.url).searchParams;
  const f = filterSchema.parse(Object.fromEntries([...params].filter(([, v]) => v !== "")));
  const [createdAt, ...id] = f.after?.split(".") ?? [];
  const [{ rows, next }, options, brands, alerts] = await Promise.all([
    listPayments(context.env.DB, {
      brandId: f.brand,
      status: f.status,
      method: f.method,
      country: f.country,
      from: f.from,
      to: f.to !== undefined ? f.to + 86_400 : undefined,
      minCents: f.min,
      maxCents: f.max,
      alert: f.alert === "1",
      after: f.after ? { createdAt: Number(createdAt), id: id.join(".") } : undefined,
    }),
    paymentFilterOptions(context.env.DB),
    brandsById(context.env),
    providerAlertCount(context.env.DB),
  ]);
  const keep = [...params].filter(([k, v]) => k !== "after" && v !== "");
  const thisMonth = new Date().toISOString().slice(0, 7);
  return {
    rows: rows.map((r) => ({ ...r, brand: brands.get(r.brandId)?.name ?? String(r.brandId) })),
    next: next ? new URLSearchParams([...keep, ["after", next]]).toString() : null,
    first: f.after ? new URLSearchParams(keep).toString() : null,
    query: Object.fromEntries(params),
    brands: [...brands.values()].map((b) => ({ id: b.id, name: b.name })),
    statuses: PAYMENT_STATUSES,
    alerts,
    ...options,
    thisMonth,
    title: "Payments",
  };
}

/** The refund state's words and badge in the list (refundState). */
const REFUND_BADGE: Record<NonNullable<RefundState>, [string, string]> = {
  refunded: ["refunded", "a-badge"],
  partly_refunded: ["partly refunded", "a-badge"],
  refund_pending: ["refund pending", "a-badge a-badge-warn"],
  refund_failed: ["refund failed", "a-badge a-badge-red"],
};

/** A filter's select: "any" first, then the options as [value, label]. */
type Row = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];

const PAYMENT_COLUMNS: Column<Row>[] = [
  { header: "Created (UTC)", cell: (p) => when(p.createdAt) },
  {
    header: "Payment",
    cell: (p) => (
      <a href={`/admin/payments/${p.id}`}>
        <code>{p.id}</code>
      </a>
    ),
  },
  { header: "Brand", cell: (p) => p.brand },
  { header: "Member", cell: (p) => p.email ?? p.userId },
  {
    header: "Status",
    cell: (p) => (
      <>
        <span className={statusBadge(p.status)}>{p.status}</span>
        {p.refund ? <span className={REFUND_BADGE[p.refund][1]}>{REFUND_BADGE[p.refund][0]}</span> : null}
        {p.alert ? (
          <span className={p.alertDealt ? "a-badge" : "a-badge a-badge-red"} title={p.alert}>
            {p.alertDealt ? "provider disagreed (dealt with)" : "provider disagrees"}
          </span>
        ) : null}
      </>
    ),
  },
  { header: "Method", cell: (p) => p.method },
  { header: "Country", cell: (p) => p.country ?? "" },
  { header: "Amount", num: true, cell: (p) => money(p.amountCents, p.currency) },
];

export default function AdminPayments() {
  const { rows, next, first, query, brands, statuses, methods, countries, thisMonth, alerts } =
    useLoaderData<typeof loader>();
  return (
    <>
      <h1>Payments</h1>
      {alerts > 0 ? (
        <p className="a-error" role="alert">
          Mollie and our record disagree on {alerts === 1 ? "1 payment" : `${alerts} payments`}.{" "}
          <a href="/admin/payments?alert=1">Show them</a>
        </p>
      ) : null}
      <form method="get" className="a-filters" aria-label="Filter payments">
        <Choice
          label="Brand"
          name="brand"
          value={query.brand}
          any="All brands"
          options={brands.map((b) => [String(b.id), b.name])}
        />
        <Choice label="Status" name="status" value={query.status} options={statuses.map((v) => [v, v])} />
        <Choice label="Method" name="method" value={query.method} options={methods.map((v) => [v, v])} />
        <Choice label="Country" name="country" value={query.country} options={countries.map((v) => [v, v])} />
        <Choice
          label="Provider"
          name="alert"
          value={query.alert}
          any="Any"
          options={[["1", "Disagrees with our record"]]}
        />
        <label className="a-field">
          <span>From (UTC day)</span>
          <input name="from" type="date" defaultValue={query.from ?? ""} />
        </label>
        <label className="a-field">
          <span>To (UTC day)</span>
          <input name="to" type="date" defaultValue={query.to ?? ""} />
        </label>
        <label className="a-field">
          <span>Amount from</span>
          <input name="min" inputMode="decimal" defaultValue={query.min ?? ""} placeholder="0.00" />
        </label>
        <label className="a-field">
          <span>Amount to</span>
          <input name="max" inputMode="decimal" defaultValue={query.max ?? ""} placeholder="999.99" />
        </label>
        <button type="submit" className="a-btn">
          Filter
        </button>
      </form>
      <AdminTable columns={PAYMENT_COLUMNS} rows={rows} rowKey={(p) => p.id} empty="No payments match." />
      <p className="a-pager">
        {first !== null ? <a href={`/admin/payments?${first}`}>Newest</a> : null}
        {next ? <a href={`/admin/payments?${next}`}>Older payments</a> : null}
      </p>
      <div className="a-card">
        <h2>Export for accounting</h2>
        <p className="a-muted">
          One brand's month as CSV: every payment paid in it, every refund and chargeback applied in it, with VAT per
          country as on the receipts, and a total per country and currency. Each line names the payer's card or bank
          country (flagged when it differs from the payment country) and the Mollie settlement that carried it.
        </p>
        <p>
          <a href="/admin/settlements">Mollie settlements, reconciled with fees</a>
        </p>
        <form method="post" action="/admin/payments/export" className="a-filters">
          {/* Not `required`: its first option is a brand, so a choice is always made (and HTML forbids that pairing). */}
          <Choice
            label="Brand"
            name="brand"
            value={query.brand ?? brands[0]?.id}
            any={null}
            options={brands.map((b) => [b.id, b.name])}
          />
          <label className="a-field">
            <span>Month</span>
            <input name="month" type="month" required defaultValue={thisMonth} />
          </label>
          <button type="submit" className="a-btn a-btn-quiet">
            Download CSV
          </button>
        </form>
      </div>
    </>
  );
}
