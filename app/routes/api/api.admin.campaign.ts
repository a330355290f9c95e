/**
 * POST /api/admin/campaign: an operator sends a promotion or news to every member of a brand who has
 * that type switched on (Authorization: Bearer <ADMIN_TOKEN>). Body (JSON or form):
 * { "brandId": 3, "type": "promotions" | "news", "ref": "spring-2026", "path": "/credits" }.
 * Answers { "queued": n }; the same ref again mails nobody twice (notification_log). Decision 124.
 */
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { adminRequired, isAdmin } from "~/lib/admin.server";
import { readFields } from "~/lib/body.server";
import { jsonResponse } from "~/lib/json.server";
import { campaignSchema, sendCampaign } from "~/models/notify.server";

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST")
    return jsonResponse({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "POST" } });
  if (!(await isAdmin(request, context.env))) return adminRequired();
  const parsed = campaignSchema().safeParse(await readFields(request, context));
  if (!parsed.success) {
    return jsonResponse(
      { error: "invalid", fields: [...new Set(parsed.error.issues.map((i) => i.path.join(".")))] },
      { status: 400 },
    );
  }
  const queued = await sendCampaign(context.env, parsed.data);
  if (queued === null) return jsonResponse({ error: "unknown_brand" }, { status: 404 });
  return jsonResponse({ queued });
}

export const loader = () => jsonResponse({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "POST" } });
