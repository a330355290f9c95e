import { authenticationRequired, jsonResponse } from "~/lib/json.server";
/** GET /api/likes.php: { profiles, liked_by: [{ id, like_new }] } for the logged-in member. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getMember } from "~/models/session.server";
import { likesApi } from "~/models/likes.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await getMember(request, context);
  if (!member) return authenticationRequired();
  return jsonResponse(await likesApi(context.env.DB, member.id));
}
