import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { getMember, markOffline } from "~/models/session.server";

/** POST (beacon) /api/page-hidden.php: the page became hidden; the member shows as offline. */
export async function action({ request, context }: ActionFunctionArgs) {
  const member = await getMember(request, context);
  if (member) await markOffline(context, member.id);
  return new Response(null, { status: 204 });
}
