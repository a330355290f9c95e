/** Brands (admin; decision 181): every brand at a glance, each opening its settings form. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { AdminTable, type Column } from "~/components/admin/AdminTable";
import { NICHES } from "~/lib/constants";
import { listBrands } from "~/models/admin/brands.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "brands";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const url = new URL(request.url);
  return { brands: await listBrands(context.env.DB), added: url.searchParams.get("added"), title: "Brands" };
}

const SIGNUPS: Record<string, string> = {
  all: "open",
  with_trafficsource: "traffic source only",
  other: "invite only",
};

type Brand = ReturnType<typeof useLoaderData<typeof loader>>["brands"][number];

const BRAND_COLUMNS: Column<Brand>[] = [
  {
    header: "Brand",
    cell: (b) => (
      <>
        <a href={`/admin/brands/${b.id}`}>{b.name}</a>
        {b.isDefault ? <span className="a-badge"> default</span> : null}
      </>
    ),
  },
  { header: "Host name", className: "a-host", cell: (b) => <code>{b.hostname}</code> },
  { header: "Niche", cell: (b) => NICHES[b.niche as keyof typeof NICHES] ?? b.niche },
  { header: "Language", cell: (b) => b.domainLanguage },
  { header: "Currency", cell: (b) => b.currency },
  {
    header: "Sign-ups",
    cell: (b) => <span className={b.signups === "all" ? "a-badge a-badge-ok" : "a-badge"}>{SIGNUPS[b.signups]}</span>,
  },
  { header: "Company", cell: (b) => b.company },
  { header: "Accounts", num: true, cell: (b) => b.accounts.toLocaleString("en") },
];

export default function AdminBrands() {
  const { brands, added } = useLoaderData<typeof loader>();
  return (
    <>
      <div className="a-head">
        <h1>Brands</h1>
        <a className="a-btn" href="/admin/brands/new">
          Add a brand
        </a>
      </div>
      {added ? (
        <p className="a-ok" role="status">
          Brand added. Its host name answers once its domain is routed to the Worker.
        </p>
      ) : null}
      <AdminTable columns={BRAND_COLUMNS} rows={brands} rowKey={(b) => b.id} empty="No brands yet." />
      <p className="a-muted">
        The host name unknown to every brand shows the default brand. A saved change applies at once on this server and
        on every other within 10 seconds.
      </p>
    </>
  );
}
