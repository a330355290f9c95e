/**
 * POST /admin/inbox/{id}/typing (chat team, admin; decision 210): the reply box's script says the team
 * member is writing; the member sees the profile "typing", as from anyone. Only the claim's holder.
 */
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { teamTyping } from "~/models/admin/inbox.server";

/** The console part this page belongs to: its action admits only the roles that open it. */
export const area: OperatorArea = "inbox";

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const id = params.id ?? "";
  const ok = /^[\w-]{1,64}$/.test(id) && (await teamTyping(context.env, operator, id));
  return new Response(null, { status: ok ? 204 : 409, headers: { "Cache-Control": "no-store" } });
}
