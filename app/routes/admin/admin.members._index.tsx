/** Finding a member (support, admin): by e-mail, name, member id or payment id; keyset-paged (decision 177). */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
import { when } from "~/components/admin/labels";
import { searchMembers, withBalances } from "~/models/admin/members.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "members";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").slice(0, 200);
  const key = params.get("after");
  const id = params.get("afterId");
  const after = key !== null && id ? { key: key.slice(0, 300), id: id.slice(0, 100) } : null;
  const found = await searchMembers(context.env.DB, q, after);
  return { q, paged: after !== null, ...found, hits: await withBalances(context.env, found.hits), title: "Members" };
}

const VIA: Record<string, string> = { id: "member id", payment: "payment id" };

type Hit = ReturnType<typeof useLoaderData<typeof loader>>["hits"][number];
const HIT_COLUMNS: Column<Hit>[] = [
  {
    header: "Member",
    cell: (h) => (
      <span>
        <a href={`/admin/members/${encodeURIComponent(h.id)}`}>{h.name || "(no profile)"}</a>
        {VIA[h.via] ? (
          <>
            {" "}
            <span className="a-badge">by {VIA[h.via]}</span>
          </>
        ) : null}
        <br />
        <code className="a-code">{h.id}</code>
      </span>
    ),
  },
  { header: "E-mail", cell: (h) => h.email },
  { header: "Brand", cell: (h) => h.brandName },
  {
    header: "Status",
    cell: (h) => (
      <span>
        {h.deletedAt ? (
          <span className="a-badge a-badge-red">deleted</span>
        ) : h.status === "confirmed" ? (
          <span className="a-badge a-badge-ok">confirmed</span>
        ) : (
          <span className="a-badge">not confirmed</span>
        )}
        {h.paidUser ? (
          <>
            {" "}
            <span className="a-badge">paying</span>
          </>
        ) : null}
      </span>
    ),
  },
  { header: "Credits", num: true, cell: (h) => h.credits },
  { header: "Joined", cell: (h) => when(h.createdAt) },
];

export default function AdminMembers() {
  const { q, hits, next, mode, paged } = useLoaderData<typeof loader>();
  const nextHref = next
    ? `/admin/members?${new URLSearchParams({ q, after: next.key, afterId: next.id }).toString()}`
    : null;
  return (
    <>
      <h1>Members</h1>
      <form method="get" className="a-filters" role="search">
        <label className="a-field">
          <span>E-mail, name, member id or payment id</span>
          <input
            name="q"
            defaultValue={q}
            maxLength={200}
            autoComplete="off"
            placeholder="anna@example.com · Anna · tr_…"
          />
        </label>
        <button type="submit" className="a-btn">
          Find
        </button>
      </form>
      <p className="a-muted">
        {mode === "newest"
          ? "Newest members first."
          : mode === "email"
            ? "Addresses starting with what you typed."
            : "Exact member or payment id, then names starting with what you typed."}
        {paged ? (
          <>
            {" "}
            <a href={`/admin/members?${new URLSearchParams({ q }).toString()}`}>Back to the first page</a>
          </>
        ) : null}
      </p>
      <AdminTable
        columns={HIT_COLUMNS}
        rows={hits}
        rowKey={(h) => `${h.via}-${h.id}`}
        empty={`No member matches “${q}”.`}
      />
      {nextHref ? (
        <p className="a-pager">
          <a className="a-btn a-btn-quiet" href={nextHref}>
            Next page →
          </a>
        </p>
      ) : null}
    </>
  );
}
