/**
 * POST /api/admin/restore: an operator puts one Durable Object's storage back to a moment of the last
 * 30 days (Authorization: Bearer <ADMIN_TOKEN>). Body (JSON or form):
 * { "object": "member" | "conversation", "id": "<member or conversation id>", "at": "2026-11-27T06:00:00Z" }
 * or { ..., "bookmark": "<an earlier answer's undo>" }. Answers { "restored": bookmark, "undo": bookmark };
 * 501 where the runtime keeps no history (local workerd). docs/operations/recovery.md.
 */
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { adminRequired, isAdmin } from "~/lib/admin.server";
import { readFields } from "~/lib/body.server";
import { jsonResponse } from "~/lib/json.server";
import { restoreObject, restoreSchema } from "~/models/restore.server";

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST")
    return jsonResponse({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "POST" } });
  if (!(await isAdmin(request, context.env))) return adminRequired();
  const parsed = restoreSchema.safeParse(await readFields(request, context));
  if (!parsed.success)
    return jsonResponse(
      { error: "invalid", fields: [...new Set(parsed.error.issues.map((i) => i.path.join(".")))] },
      { status: 400 },
    );
  const r = await restoreObject(context.env, parsed.data);
  if (!r.ok)
    return jsonResponse(
      { error: r.error === "unsupported" ? "restore_unsupported" : "restore_refused", detail: r.detail },
      { status: r.error === "unsupported" ? 501 : 400 },
    );
  return jsonResponse({ restored: r.bookmark, undo: r.undo });
}

export const loader = () => jsonResponse({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "POST" } });
