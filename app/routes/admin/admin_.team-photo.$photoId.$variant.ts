/**
 * GET /admin/team-photo/{id}/{thumb|full|blur}: a photo of a team-run profile for the team's editor
 * (chat team, admin; decision 210), whatever its review state; only of the operator's brands.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireOperator, type OperatorArea } from "~/models/admin/operators.server";
import { photoForReview } from "~/models/admin/photos.server";
import { isTeamPhotoInScope } from "~/models/admin/team-profiles.server";

/** The console part this page belongs to: its loader admits only the roles that open it. */
export const area: OperatorArea = "inbox";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context, area);
  const variant = (["full", "thumb", "blur"] as const).find((v) => v === params.variant) ?? null;
  const id = params.photoId ?? "";
  const object =
    variant && /^[\w-]{1,64}$/.test(id) && (await isTeamPhotoInScope(context.env.DB, operator, id))
      ? await photoForReview(context.env, id, variant)
      : null;
  if (!object) throw new Response("Not found", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  return new Response(object.body, {
    headers: {
      "Content-Type": object.httpMetadata?.contentType ?? "image/webp",
      "Cache-Control": "private, no-store",
    },
  });
}
