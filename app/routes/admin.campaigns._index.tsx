/**
 * Campaigns (admin, support; decision 183): the list, newest first, with each one's status and
 * counters. Writing, previewing and sending are on the campaign's own page.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { when } from "~/components/admin/labels";
import { CAMPAIGNS_PAGE, listCampaigns } from "~/models/admin/campaigns.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "campaigns";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const before = Number(new URL(request.url).searchParams.get("before"));
  const rows = await listCampaigns(context.env.DB, Number.isSafeInteger(before) && before > 0 ? before : undefined);
  return {
    campaigns: rows.map(({ c, brandName }) => ({
      id: c.id,
      brandName,
      type: c.type,
      title: Object.values(c.title).find(Boolean) ?? (c.ref ? `Script: ${c.ref}` : ""),
      status: c.status,
      sendAt: c.sendAt,
      sent: c.sent,
      skipped: c.skipped,
      failed: c.failed,
    })),
    more: rows.length === CAMPAIGNS_PAGE ? rows.at(-1)!.c.id : null,
    title: "Campaigns",
  };
}

export const statusClass = (s: string) =>
  s === "done" ? "a-badge a-badge-ok" : s === "paused" ? "a-badge a-badge-red" : "a-badge";

export default function AdminCampaigns() {
  const { campaigns, more } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Campaigns</h1>
      <p>
        <a className="a-btn" href="/admin/campaigns/new">
          New campaign
        </a>
      </p>
      {campaigns.length === 0 ? (
        <p className="a-muted">No campaign yet.</p>
      ) : (
        <div className="a-table-wrap">
          <table className="a-table">
            <thead>
              <tr>
                <th>Campaign</th>
                <th>Brand</th>
                <th>Status</th>
                <th>Sent at</th>
                <th className="a-num">Sent</th>
                <th className="a-num">Skipped</th>
                <th className="a-num">Failed</th>
              </tr>
            </thead>
            <tbody>
              {campaigns.map((c) => (
                <tr key={c.id}>
                  <td>
                    <a href={`/admin/campaigns/${c.id}`}>{c.title || `Campaign ${c.id}`}</a>
                    <div className="a-muted">{c.type === "news" ? "News" : "Promotion"}</div>
                  </td>
                  <td>{c.brandName}</td>
                  <td>
                    <span className={statusClass(c.status)}>{c.status}</span>
                  </td>
                  <td>{c.sendAt ? `${when(c.sendAt)} UTC` : "–"}</td>
                  <td className="a-num">{c.sent}</td>
                  <td className="a-num">{c.skipped}</td>
                  <td className="a-num">{c.failed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {more ? (
        <p className="a-pager">
          <a href={`/admin/campaigns?before=${more}`}>Older campaigns</a>
        </p>
      ) : null}
    </>
  );
}
