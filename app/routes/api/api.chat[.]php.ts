import { authenticationRequired, jsonResponse } from "~/lib/json.server";
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { readFields } from "~/lib/body.server";
import { hideConversation, unhideConversation } from "~/models/chat.server";
import { getMember } from "~/models/session.server";

/**
 * DELETE /api/chat.php with `conversation` in the body (form-encoded or JSON): removes the chat for this
 * member. POST with `conversation` and `intent=restore`: the list's Undo shows it again.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "DELETE" && request.method !== "POST")
    return jsonResponse({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "DELETE, POST" } });
  const member = await getMember(request, context);
  if (!member) return authenticationRequired();
  const { conversation, intent } = await readFields(request, context);
  const id = typeof conversation === "string" ? conversation : "";
  const restore = request.method === "POST";
  if (restore && intent !== "restore") return jsonResponse({ error: "invalid" }, { status: 400 });
  const done = restore ? unhideConversation : hideConversation;
  if (!id || !(await done(context.env, id, member.id))) return jsonResponse({ error: "not_found" }, { status: 404 });
  return jsonResponse({ ok: true });
}
