/** The console's start page: the parts the operator's role opens. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { consoleOverview } from "~/models/admin/overview.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "home";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  return { operator, overview: await consoleOverview(context.env.DB, operator.role) };
}

export default function AdminHome() {
  const { operator, overview } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Hello {operator.name}</h1>
      <div className="a-tiles">
        {overview.map((tile) => (
          <a key={tile.href} className="a-tile" href={tile.href}>
            {tile.count !== null ? <strong>{tile.count}</strong> : null}
            {tile.label}
          </a>
        ))}
      </div>
    </>
  );
}
