import { authenticationRequired, jsonResponse } from "~/lib/json.server";
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { chatEntries, listConversations } from "~/models/chat.server";
import { getMember } from "~/models/session.server";

/** GET /api/chats.php: { chats: [{ conversation: { id }, profile: { id }, num_unread_messages }] }. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await getMember(request, context);
  if (!member) return authenticationRequired();
  const chats = chatEntries(await listConversations(context.env.DB, member.id));
  return jsonResponse({ chats });
}
