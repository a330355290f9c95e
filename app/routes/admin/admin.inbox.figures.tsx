/**
 * The team's reply figures (chat team, admin; decision 210): per brand the share of paid messages
 * answered within the brand's window, the median and 90th-percentile first-reply time and the credits
 * returned; per team member their reply times. The last 7, 30 or 90 days.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
import { ageOf } from "~/components/admin/labels";
import { nowS } from "~/lib/dates";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { teamFigures } from "~/models/admin/team-figures.server";

/** The console part this page belongs to: its loader admits only the roles that open it. */
export const area: OperatorArea = "inbox";

const PERIODS = [7, 30, 90] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const asked = Number(new URL(request.url).searchParams.get("days"));
  const days = PERIODS.find((d) => d === asked) ?? 30;
  const now = nowS();
  const figures = await teamFigures(context.env.DB, operator, now - days * 86_400, now + 1);
  return { ...figures, days, title: "Inbox · reply figures" };
}

const time = (s: number | null) => (s === null ? "–" : ageOf(s));

type Figures = Awaited<ReturnType<typeof teamFigures>>;
/** The two tables share their reply-time columns. */
const REPLY_TIMES: Column<{ median: number | null; p90: number | null }>[] = [
  { header: "First reply, median", label: "Median", num: true, cell: (r) => time(r.median) },
  { header: "First reply, 90th percentile", label: "90th percentile", num: true, cell: (r) => time(r.p90) },
];
const BRAND_COLUMNS: Column<Figures["byBrand"][number]>[] = [
  { header: "Brand", cell: (b) => b.name },
  {
    header: "Paid messages answered in time",
    label: "Answered in time",
    num: true,
    cell: (b) => (b.share === null ? "–" : `${Math.round(b.share * 100)}% (${b.paidInTime} of ${b.paid})`),
  },
  ...REPLY_TIMES,
  { header: "Credits returned", num: true, cell: (b) => b.creditsReturned },
];
const OPERATOR_COLUMNS: Column<Figures["byOperator"][number]>[] = [
  { header: "Team member", cell: (o) => o.name },
  { header: "Replies", num: true, cell: (o) => o.replies },
  ...REPLY_TIMES,
];

export default function AdminInboxFigures() {
  const { byBrand, byOperator, days } = useLoaderData<typeof loader>();
  return (
    <>
      <p>
        <a href="/admin/inbox">← Inbox</a>
      </p>
      <h1>Reply figures</h1>
      <p className="a-filters">
        {PERIODS.map((d) =>
          d === days ? (
            <strong key={d}>last {d} days</strong>
          ) : (
            <a key={d} href={`/admin/inbox/figures?days=${d}`}>
              last {d} days
            </a>
          ),
        )}
      </p>
      <h2>Per brand</h2>
      <AdminTable
        columns={BRAND_COLUMNS}
        rows={byBrand}
        rowKey={(b) => b.brandId}
        empty="No brands with a team inbox."
      />
      <h2>Per team member</h2>
      <AdminTable
        columns={OPERATOR_COLUMNS}
        rows={byOperator}
        rowKey={(o) => o.operatorId}
        empty="No replies in this period."
      />
      <p className="a-muted">
        A reply time runs from the member&rsquo;s first unanswered message to the team&rsquo;s reply. A paid message
        given back unanswered counts as not answered in time, also when it is answered later.
      </p>
    </>
  );
}
