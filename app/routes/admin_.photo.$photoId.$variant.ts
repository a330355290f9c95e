/**
 * GET /admin/photo/{id}/{thumb|full}: a photo's bytes for the review console (moderator, admin).
 * The member route /photos/… never serves a pending photo to anyone but its owner (decision 175),
 * and operators have no member session, so the console has its own.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { photoForReview } from "~/models/admin/photos.server";

/** The console part this page belongs to: its loader admits only the roles that open it. */
export const area: OperatorArea = "photos";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireOperator(request, context, area);
  const variant = params.variant === "full" ? "full" : params.variant === "thumb" ? "thumb" : null;
  const object =
    variant && /^[\w-]{1,64}$/.test(params.photoId ?? "")
      ? await photoForReview(context.env, params.photoId!, variant)
      : null;
  if (!object) throw new Response("Not found", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  return new Response(object.body, {
    headers: {
      "Content-Type": object.httpMetadata?.contentType ?? "image/webp",
      "Cache-Control": "private, no-store",
    },
  });
}
