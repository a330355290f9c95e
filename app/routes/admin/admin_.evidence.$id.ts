/**
 * GET /admin/evidence/{id}: a preserved photo's bytes (decision 218), for the admin only; the view is
 * audited before anything is read. Never cached, never on a member route.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { evidenceObject } from "~/models/admin/evidence.server";

/** The console part this page belongs to: its loader admits only the roles that open it. */
export const area: OperatorArea = "evidence";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const object = /^[\w-]{1,64}$/.test(params.id ?? "") ? await evidenceObject(context.env, operator, params.id!) : null;
  if (!object) throw new Response("Not found", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  return new Response(object.body, {
    headers: {
      "Content-Type": object.httpMetadata?.contentType ?? "image/webp",
      "Cache-Control": "private, no-store",
      "Content-Disposition": "inline",
    },
  });
}
