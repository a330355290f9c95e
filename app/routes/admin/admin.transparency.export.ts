/** The month's statements of reasons as a Transparency Database JSON download (moderator, admin; audited). */
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { readForm } from "~/lib/body.server";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { exportStatements } from "~/models/admin/transparency.server";
import { RULE_LABELS } from "~/components/admin/labels";

/** The console part this page belongs to: its loader and action admit only the roles that open it. */
export const area: OperatorArea = "transparency";

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const month = String((await readForm(request, context)).get("month") ?? "");
  const result = await exportStatements(context.env.DB, operator, month, (rule) => RULE_LABELS[rule] ?? rule);
  if (!result) return new Response("Choose a month (YYYY-MM).", { status: 400 });
  return new Response(JSON.stringify(result, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="statements-of-reasons-${month}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
