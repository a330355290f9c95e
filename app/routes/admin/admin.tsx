/** The operator console's frame (decision 167): every page below checks its own role in loader and action. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Outlet, isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { AdminError, AdminShell } from "~/components/admin/AdminShell";
import {
  OPERATOR_AREAS,
  adminNotices,
  mayOpen,
  requireOperator,
  type OperatorArea,
} from "~/models/admin/operators.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "console";

// The member site's empty layout (no member chrome: the root reads no member session on /admin).
export const handle = { layout: "empty" };

// The document title comes from the loader's `title` (the root renders the one <title>).
export const meta: MetaFunction = () => [{ name: "robots", content: "noindex" }];

/** The console's parts that have pages. */
const LIVE: OperatorArea[] = [
  "inbox",
  "members",
  "payments",
  "codes",
  "packages",
  "brands",
  "campaigns",
  "reports",
  "photos",
  "appeals",
  "transparency",
  "audit",
  "operators",
  "approvals",
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const areas = (Object.keys(OPERATOR_AREAS) as OperatorArea[]).filter((a) => mayOpen(operator.role, a));
  const notices = operator.role === "admin" ? await adminNotices(context.env.DB) : null;
  return { operator: { ...operator, areas }, live: LIVE, notices, title: "Console" };
}

export default function AdminLayout() {
  const { operator, live, notices } = useLoaderData<typeof loader>();
  return (
    <AdminShell operator={operator} live={live} notices={notices}>
      <Outlet />
    </AdminShell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error) && typeof error.data === "string" ? error.data : "";
  return <AdminError status={status} message={message} />;
}
