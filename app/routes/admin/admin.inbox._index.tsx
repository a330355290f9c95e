/**
 * The team's inbox (chat team, admin; decision 201): conversations where a member waits for a team-run
 * profile's answer, longest wait first, with the wait, the member's language, what they spent there
 * and who holds each. Filters by brand, language, profile and "mine". With JavaScript the list follows
 * its live stream; without, the page reloads itself every half minute (a refresh inside <noscript>, so
 * it never fires beside the script) and has a refresh link.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
import { Choice } from "~/components/admin/Choice";
import { ageOf, when } from "~/components/admin/labels";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { INBOX_PAGE, inboxChoices, teamInbox } from "~/models/admin/inbox.server";
import { nowS } from "~/lib/dates";
import { LiveScript } from "~/components/admin/LiveScript";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "inbox";

/** Without JavaScript the list reloads itself every 30 s (root's Layout reads `refreshWithoutScript`). */
export const handle = { refreshWithoutScript: 30 };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const params = new URL(request.url).searchParams;
  const brand = params.get("brand") ?? "";
  const language = (params.get("language") ?? "").slice(0, 8);
  const profile = (params.get("profile") ?? "").slice(0, 64);
  const mine = params.get("mine") === "1";
  const filter = {
    brandId: /^\d{1,9}$/.test(brand) ? Number(brand) : null,
    language: /^[a-z]{2}$/.test(language) ? language : null,
    profileId: /^[\w-]{1,64}$/.test(profile) ? profile : null,
    mine,
  };
  const now = nowS();
  const [rows, choices] = await Promise.all([
    teamInbox(context.env.DB, operator, filter, now),
    inboxChoices(context.env.DB, operator),
  ]);
  const sent = params.get("sent") === "1";
  return { rows, choices, filter, now, sent, search: params.toString(), title: "Inbox" };
}

type InboxRow = ReturnType<typeof useLoaderData<typeof loader>>["rows"][number];
/** The waiting conversations' columns, their ages counted to now. */
const inboxColumns = (now: number, brandName: Map<number, string>): Column<InboxRow>[] => [
  {
    header: "Member",
    cell: (r) => <a href={`/admin/inbox/${encodeURIComponent(r.conversationId)}`}>{r.memberName}</a>,
  },
  {
    header: "To",
    cell: (r) => (
      <span>
        {r.profileName} <span className="a-muted">· {brandName.get(r.brandId) ?? r.brandId}</span>
      </span>
    ),
  },
  {
    header: "Waiting",
    cell: (r) => <span title={when(r.waitingSince ?? now)}>{ageOf(now - (r.waitingSince ?? now))}</span>,
  },
  { header: "Lang.", cell: (r) => r.language },
  { header: "Credits", num: true, cell: (r) => r.credits },
  {
    header: "Held by",
    cell: (r) =>
      r.claimedBy ? (
        <span className={r.mine ? "a-badge a-badge-ok" : "a-badge"}>
          {r.mine ? "you" : r.claimedBy} · {ageOf(now - (r.claimedAt ?? now))}
        </span>
      ) : (
        <span className="a-muted">free</span>
      ),
  },
];

export default function AdminInbox() {
  const { rows, choices, filter, now, sent, search } = useLoaderData<typeof loader>();
  const brandName = new Map(choices.brands.map((b) => [b.id, b.name]));
  const profiles = choices.profiles.filter((p) => !filter.brandId || p.brandId === filter.brandId);
  return (
    <>
      <h1>Inbox</h1>
      {sent ? (
        <p className="a-ok" role="status">
          Reply sent.
        </p>
      ) : null}
      <form method="get" className="a-filters">
        <Choice
          label="Brand"
          name="brand"
          value={filter.brandId}
          any="All brands"
          options={choices.brands.map((b) => [b.id, b.name])}
        />
        <Choice
          label="Language"
          name="language"
          value={filter.language}
          any="All"
          options={choices.languages.map((l) => [l, l])}
        />
        <Choice
          label="Team-run profile"
          name="profile"
          value={filter.profileId}
          any="All"
          options={profiles.map((p) => [p.id, `${p.name} (${brandName.get(p.brandId) ?? p.brandId})`])}
        />
        <label className="a-check">
          <input type="checkbox" name="mine" value="1" defaultChecked={filter.mine} /> Mine
        </label>
        <button type="submit" className="a-btn">
          Filter
        </button>
      </form>
      <div id="inbox-live">
        <p className="a-muted">
          {rows.length === 0
            ? "Nobody waits for an answer."
            : `${rows.length}${rows.length === INBOX_PAGE ? "+" : ""} waiting, longest wait first.`}{" "}
          <a href={`/admin/inbox${search ? `?${search}` : ""}`}>Refresh</a> ·{" "}
          <a href="/admin/inbox/figures">Reply figures</a>
        </p>
        <AdminTable
          className="a-inbox"
          columns={inboxColumns(now, brandName)}
          rows={rows}
          rowKey={(r) => r.conversationId}
          empty={null}
        />
      </div>
      <LiveScript part="list" />
    </>
  );
}
