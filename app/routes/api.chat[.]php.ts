import { authenticationRequired, jsonResponse } from "~/lib/json.server";
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { readFields } from "~/lib/body.server";
import { hideConversation } from "~/models/chat.server";
import { getMember } from "~/models/session.server";

/** DELETE /api/chat.php with `conversation` in the body (form-encoded or JSON): removes the chat for this member. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "DELETE")
    return jsonResponse({ error: "method_not_allowed" }, { status: 405, headers: { Allow: "DELETE" } });
  const member = await getMember(request, context);
  if (!member) return authenticationRequired();
  const { conversation } = await readFields(request, context);
  const id = typeof conversation === "string" ? conversation : "";
  if (!id || !(await hideConversation(context.env.DB, id, member.id)))
    return jsonResponse({ error: "not_found" }, { status: 404 });
  return jsonResponse({ ok: true });
}
