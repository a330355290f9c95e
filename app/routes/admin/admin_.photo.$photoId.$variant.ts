/**
 * GET /admin/photo/{id}/{thumb|full|blur}: a photo's bytes for the console (moderator, admin): the
 * review queue, a reported photo or profile in its case, a held photo in its appeal.
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
  const variant = (["full", "thumb", "blur"] as const).find((v) => v === params.variant) ?? null;
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
