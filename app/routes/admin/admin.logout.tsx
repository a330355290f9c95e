/** Ends the operator's session (POST only; a GET changes nothing). */
import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { endOperatorSession, requireOperator, type OperatorArea } from "~/models/admin/operators.server";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "console";

export async function loader({ request, context }: ActionFunctionArgs) {
  await requireOperator(request, context, area);
  return redirect("/admin");
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireOperator(request, context, area);
  return redirect("/admin/login", { headers: { "Set-Cookie": await endOperatorSession(request, context) } });
}
