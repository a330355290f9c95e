/**
 * Campaigns (admin, support; decision 183): the list, newest first, with each one's status and
 * counters. Writing, previewing and sending are on the campaign's own page.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
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

type Campaign = ReturnType<typeof useLoaderData<typeof loader>>["campaigns"][number];

const CAMPAIGN_COLUMNS: Column<Campaign>[] = [
  {
    header: "Campaign",
    cell: (c) => (
      <>
        <a href={`/admin/campaigns/${c.id}`}>{c.title || `Campaign ${c.id}`}</a>
        <div className="a-muted">{c.type === "news" ? "News" : "Promotion"}</div>
      </>
    ),
  },
  { header: "Brand", cell: (c) => c.brandName },
  { header: "Status", cell: (c) => <span className={statusClass(c.status)}>{c.status}</span> },
  { header: "Sent at", cell: (c) => (c.sendAt ? `${when(c.sendAt)} UTC` : "–") },
  { header: "Sent", num: true, cell: (c) => c.sent },
  { header: "Skipped", num: true, cell: (c) => c.skipped },
  { header: "Failed", num: true, cell: (c) => c.failed },
];

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
      <AdminTable columns={CAMPAIGN_COLUMNS} rows={campaigns} rowKey={(c) => c.id} empty="No campaign yet." />
      {more ? (
        <p className="a-pager">
          <a href={`/admin/campaigns?before=${more}`}>Older campaigns</a>
        </p>
      ) : null}
    </>
  );
}
