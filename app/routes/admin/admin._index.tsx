/**
 * The dashboard (every role, decision 177): the business per brand and for all brands, today / 7 / 30
 * days, with the revenue per day and the sign-up funnel as server-rendered SVG; and the operator's
 * own work queues (the tiles of the parts their role opens).
 */
import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
import { Funnel, RevenueChart } from "~/components/admin/Charts";
import { money, percent } from "~/components/admin/labels";
import { PERIODS, ageCheckFigures, dashboard, type Figures } from "~/models/admin/dashboard.server";
import { getOperator, mayOpen, requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { consoleOverview } from "~/models/admin/overview.server";
import { trustedListState } from "~/models/age-trust.server";
import { nowS } from "~/lib/dates";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "home";

export async function loader({ request, context }: LoaderFunctionArgs) {
  // The chat team's console is its inbox (the dashboard shows the business's money).
  const signedIn = await getOperator(request, context);
  if (signedIn && !mayOpen(signedIn.role, area) && mayOpen(signedIn.role, "inbox")) throw redirect("/admin/inbox");
  const operator = await requireOperator(request, context, area);
  const raw = new URL(request.url).searchParams.get("brand");
  const brandId = raw && /^\d{1,9}$/.test(raw) ? Number(raw) : null;
  const [overview, board, ageChecks, trustedList] = await Promise.all([
    consoleOverview(context.env.DB, operator.role),
    dashboard(context.env.DB, brandId),
    ageCheckFigures(context.env.DB, brandId),
    trustedListState(context.env.DB, nowS()),
  ]);
  return { overview, board, ageChecks, trustedList, title: "Dashboard" };
}

/** A UTC day of a time in seconds. */
const day = (s: number) => new Date(s * 1000).toISOString().slice(0, 10);

type Row = { label: string; hint?: string; cells: (f: Figures) => React.ReactNode[] };
/** A row of the figures table: one cell a period, or one cell across them all. */
type FigureRow = { label: string; hint?: string; cells: React.ReactNode[] };

const triple = (t: Record<string, number>) => PERIODS.map((p) => (t[p.key] ?? 0).toLocaleString("en"));
const moneyCells = (m: Record<string, Record<string, number>>) =>
  PERIODS.map((p) => {
    const entries = Object.entries(m).filter(([, t]) => (t[p.key] ?? 0) !== 0);
    return entries.length ? (
      <span key={p.key} className="a-money">
        {entries.map(([currency, t]) => (
          <span key={currency}>{money(t[p.key] ?? 0, currency)}</span>
        ))}
      </span>
    ) : (
      "0"
    );
  });

/** "3 × 12.00 EUR", or "0" when there were none. */
const counted = (n: number, amount: React.ReactNode) =>
  n ? (
    <>
      {n} × {amount}
    </>
  ) : (
    "0"
  );

const ROWS: Row[] = [
  { label: "Sign-ups", cells: (f) => triple(f.signups) },
  {
    label: "Activated",
    hint: "of those sign-ups, e-mail confirmed",
    cells: (f) =>
      PERIODS.map(
        (p) => `${f.activations[p.key].toLocaleString("en")} (${percent(f.activations[p.key], f.signups[p.key])})`,
      ),
  },
  {
    label: "First purchase",
    hint: "of those sign-ups, bought since (conversion)",
    cells: (f) =>
      PERIODS.map(
        (p) =>
          `${f.firstPurchases[p.key].toLocaleString("en")} (${percent(f.firstPurchases[p.key], f.signups[p.key])})`,
      ),
  },
  { label: "Paying members", hint: "paid at least once in the period", cells: (f) => triple(f.payingMembers) },
  { label: "Payments", cells: (f) => triple(f.payments) },
  { label: "Revenue (gross)", cells: (f) => moneyCells(f.gross) },
  {
    label: "Refunds",
    cells: (f) => moneyCells(f.refunds).map((c, i) => counted(f.refundCount[PERIODS[i]!.key], c)),
  },
  {
    label: "Chargebacks",
    cells: (f) => moneyCells(f.chargebacks).map((c, i) => counted(f.chargebackCount[PERIODS[i]!.key], c)),
  },
  { label: "Revenue (net)", hint: "gross − refunds − chargebacks", cells: (f) => moneyCells(f.net) },
  { label: "Messages sent", cells: (f) => triple(f.messages) },
];

const FIGURE_COLUMNS: Column<FigureRow>[] = [
  {
    header: "",
    rowHeader: true,
    cell: (r) => (
      <>
        {r.label}
        {r.hint ? <small>{r.hint}</small> : null}
      </>
    ),
  },
  ...PERIODS.map((p, i): Column<FigureRow> => ({
    header: p.label,
    num: true,
    span: (r) => (r.cells.length === 1 ? PERIODS.length : 1),
    cell: (r) => r.cells[i],
  })),
];

type BrandRow = ReturnType<typeof useLoaderData<typeof loader>>["board"]["perBrand"][number];
const BRAND_COLUMNS: Column<BrandRow>[] = [
  { header: "Brand", cell: (b) => <a href={`/admin?brand=${b.id}`}>{b.name}</a> },
  { header: "Sign-ups", num: true, cell: (b) => b.figures.signups["30d"].toLocaleString("en") },
  { header: "First purchases", num: true, cell: (b) => b.figures.firstPurchases["30d"].toLocaleString("en") },
  { header: "Paying", num: true, cell: (b) => b.figures.payingMembers["30d"].toLocaleString("en") },
  { header: "Net revenue", num: true, cell: (b) => moneyCells(b.figures.net)[2] },
  { header: "Messages", num: true, cell: (b) => b.figures.messages["30d"].toLocaleString("en") },
  { header: "Open cases", num: true, cell: (b) => b.figures.openCases },
];

export default function AdminDashboard() {
  const { overview, board, ageChecks, trustedList } = useLoaderData<typeof loader>();
  const f = board.figures;
  const scope =
    board.brandId === null ? "All brands" : (board.brands.find((b) => b.id === board.brandId)?.name ?? "Unknown brand");
  const currencies = Object.keys(board.revenueByDay).sort();
  const figureRows: FigureRow[] = [
    ...ROWS.map((r) => ({ label: r.label, hint: r.hint, cells: r.cells(f) })),
    { label: "Open safety cases", cells: [`${f.openCases.toLocaleString("en")} now`] },
  ];
  return (
    <>
      <div className="a-head">
        <h1>{`Dashboard · ${scope}`}</h1>
        <nav className="a-pills" aria-label="Brand">
          <a href="/admin" aria-current={board.brandId === null ? "page" : undefined}>
            All brands
          </a>
          {board.brands.map((b) => (
            <a key={b.id} href={`/admin?brand=${b.id}`} aria-current={board.brandId === b.id ? "page" : undefined}>
              {b.name}
            </a>
          ))}
        </nav>
      </div>

      {trustedList.state === "overdue" || trustedList.state === "expired" ? (
        <p className="a-card a-alert" role="alert" data-testid="trusted-list-alert">
          {`The trusted list of age verification providers was due for renewal on ${day(trustedList.nextUpdate!)} and no newer list could be taken in (Workers Logs: age.trusted_list_overdue). `}
          {trustedList.state === "expired"
            ? "Its grace period is over: no proof of age is accepted until a current list is stored."
            : `It is still used until ${day(trustedList.trustedUntil!)}; then no proof of age is accepted.`}
        </p>
      ) : null}
      {overview.length ? (
        <div className="a-tiles a-tiles-small">
          {overview.map((tile) => (
            <a key={tile.href} className="a-tile" href={tile.href}>
              {tile.count !== null ? <strong>{tile.count}</strong> : null}
              {tile.label}
            </a>
          ))}
        </div>
      ) : null}

      <div className="a-kpis">
        <div className="a-kpi">
          <span>Sign-ups · 30 days</span>
          <strong>{f.signups["30d"].toLocaleString("en")}</strong>
        </div>
        <div className="a-kpi">
          <span>Conversion to first purchase</span>
          <strong>{percent(f.firstPurchases["30d"], f.signups["30d"])}</strong>
        </div>
        <div className="a-kpi">
          <span>Net revenue · 30 days</span>
          <strong className="a-money">
            {Object.keys(f.net).length
              ? Object.entries(f.net).map(([c, t]) => <span key={c}>{money(t["30d"], c)}</span>)
              : "0"}
          </strong>
        </div>
        <div className="a-kpi">
          <span>Open safety cases</span>
          <strong>{f.openCases.toLocaleString("en")}</strong>
        </div>
      </div>

      <div className="a-grid2">
        <section className="a-card">
          <h2>Revenue</h2>
          {currencies.length ? (
            currencies.map((c) => (
              <RevenueChart key={c} currency={c} series={board.revenueByDay[c]!} firstDay={board.firstDay} />
            ))
          ) : (
            <p className="a-muted">No payments in the last 30 days.</p>
          )}
        </section>
        <section className="a-card">
          <h2>Funnel</h2>
          <Funnel
            caption="Members who signed up in the last 30 days"
            steps={[
              { label: "Signed up", n: f.signups["30d"] },
              { label: "Activated", n: f.activations["30d"] },
              { label: "First purchase", n: f.firstPurchases["30d"] },
            ]}
          />
        </section>
      </div>

      <h2>Figures</h2>
      <AdminTable
        className="a-figures"
        columns={FIGURE_COLUMNS}
        rows={figureRows}
        rowKey={(r) => r.label}
        empty={null}
      />

      <h2>Brands · 30 days</h2>
      <AdminTable columns={BRAND_COLUMNS} rows={board.perBrand} rowKey={(b) => b.id} empty="No brands." />
      {ageChecks.length ? (
        <>
          <h2>Age checks · 30 days</h2>
          <AdminTable
            testId="age-checks"
            columns={[
              { header: "Brand", cell: (r) => board.brands.find((b) => b.id === r.brandId)?.name ?? r.brandId },
              { header: "Country", cell: (r) => r.country },
              { header: "Started", num: true, cell: (r) => r.started.toLocaleString("en") },
              { header: "Passed", num: true, cell: (r) => r.passed.toLocaleString("en") },
              { header: "Refused", num: true, cell: (r) => r.refused.toLocaleString("en") },
            ]}
            rows={ageChecks}
            rowKey={(r) => `${r.brandId}-${r.country}`}
            empty={null}
          />
        </>
      ) : null}
      <p className="a-muted">
        Days are UTC days; “today” started at 00:00 UTC. Revenue is read from the payments and refunds themselves, per
        currency.
      </p>
    </>
  );
}
