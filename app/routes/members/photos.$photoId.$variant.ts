/** GET /photos/{photoId}/{full|thumb|blur}: the bytes this viewer may see (photos.server.ts decides). */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { PHOTO_VARIANTS, photoFor, type PhotoVariant } from "~/models/photos.server";
import { getMember } from "~/models/session.server";
import { getBrandByHost } from "~/models/brand.server";
import { photoNeedsProof } from "~/models/age-check.server";
import { resolveCountry } from "~/lib/request.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const variant = params.variant as PhotoVariant;
  if (!PHOTO_VARIANTS.includes(variant) || !params.photoId) throw new Response("Not found", { status: 404 });
  const [member, brand] = await Promise.all([
    getMember(request, context),
    getBrandByHost(context.env, request.headers.get("Host")),
  ]);
  const country = resolveCountry(request, context);
  const withoutProof = await photoNeedsProof(request, context.env, { brand, member, country });
  const found = await photoFor(
    context.env,
    params.photoId,
    variant,
    member && { id: member.id, paidUser: member.paidUser },
    withoutProof,
  );
  if (!found) throw new Response("Not found", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  return new Response(found.object.body, {
    headers: {
      "Content-Type": found.object.httpMetadata?.contentType ?? "image/webp",
      // The answer depends on who asks (premium, blocked, owner): never in a shared cache.
      "Cache-Control": "private, max-age=300",
      Vary: "Cookie",
      "X-Photo-Variant": found.variant,
      ETag: found.object.httpEtag,
    },
  });
}
