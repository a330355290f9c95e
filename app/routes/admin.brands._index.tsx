/** Brands (admin; decision 181): every brand at a glance, each opening its settings form. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
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
      <div className="a-table-wrap">
        <table className="a-table">
          <thead>
            <tr>
              <th>Brand</th>
              <th>Host name</th>
              <th>Niche</th>
              <th>Language</th>
              <th>Currency</th>
              <th>Sign-ups</th>
              <th>Company</th>
              <th className="a-num">Accounts</th>
            </tr>
          </thead>
          <tbody>
            {brands.map((b) => (
              <tr key={b.id}>
                <td>
                  <a href={`/admin/brands/${b.id}`}>{b.name}</a>
                  {b.isDefault ? <span className="a-badge"> default</span> : null}
                </td>
                <td className="a-host">
                  <code>{b.hostname}</code>
                </td>
                <td>{NICHES[b.niche as keyof typeof NICHES] ?? b.niche}</td>
                <td>{b.domainLanguage}</td>
                <td>{b.currency}</td>
                <td>
                  <span className={b.signups === "all" ? "a-badge a-badge-ok" : "a-badge"}>{SIGNUPS[b.signups]}</span>
                </td>
                <td>{b.company}</td>
                <td className="a-num">{b.accounts.toLocaleString("en")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="a-muted">
        The host name unknown to every brand shows the default brand. A saved change applies at once on this server and
        on every other within 10 seconds.
      </p>
    </>
  );
}
