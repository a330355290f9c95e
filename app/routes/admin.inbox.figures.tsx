/**
 * The team's reply figures (chat team, admin; decision 210): per brand the share of paid messages
 * answered within the brand's window, the median and 90th-percentile first-reply time and the credits
 * returned; per team member their reply times. The last 7, 30 or 90 days.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
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
      <div className="a-table-wrap">
        <table className="a-table">
          <thead>
            <tr>
              <th>Brand</th>
              <th className="a-num">Paid messages answered in time</th>
              <th className="a-num">First reply, median</th>
              <th className="a-num">First reply, 90th percentile</th>
              <th className="a-num">Credits returned</th>
            </tr>
          </thead>
          <tbody>
            {byBrand.map((b) => (
              <tr key={b.brandId}>
                <td data-label="Brand">{b.name}</td>
                <td data-label="Answered in time" className="a-num">
                  {b.share === null ? "–" : `${Math.round(b.share * 100)}% (${b.paidInTime} of ${b.paid})`}
                </td>
                <td data-label="Median" className="a-num">
                  {time(b.median)}
                </td>
                <td data-label="90th percentile" className="a-num">
                  {time(b.p90)}
                </td>
                <td data-label="Credits returned" className="a-num">
                  {b.creditsReturned}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Per team member</h2>
      {byOperator.length === 0 ? (
        <p className="a-muted">No replies in this period.</p>
      ) : (
        <div className="a-table-wrap">
          <table className="a-table">
            <thead>
              <tr>
                <th>Team member</th>
                <th className="a-num">Replies</th>
                <th className="a-num">First reply, median</th>
                <th className="a-num">First reply, 90th percentile</th>
              </tr>
            </thead>
            <tbody>
              {byOperator.map((o) => (
                <tr key={o.operatorId}>
                  <td data-label="Team member">{o.name}</td>
                  <td data-label="Replies" className="a-num">
                    {o.replies}
                  </td>
                  <td data-label="Median" className="a-num">
                    {time(o.median)}
                  </td>
                  <td data-label="90th percentile" className="a-num">
                    {time(o.p90)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="a-muted">
        A reply time runs from the member&rsquo;s first unanswered message to the team&rsquo;s reply. A paid message
        given back unanswered counts as not answered in time, also when it is answered later.
      </p>
    </>
  );
}
