import { authenticationRequired, jsonResponse } from "~/lib/json.server";
/** GET /api/auto-like.php: a team-run profile suggested to the caller (at most one a day, decision 214): { profile: { id, main_image: { match } } }. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getMember } from "~/models/session.server";
import { autoLike } from "~/models/likes.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await getMember(request, context);
  if (!member) return authenticationRequired();
  return jsonResponse({ profile: await autoLike(context.env.DB, member) });
}
