import { authenticationRequired, jsonResponse } from "~/lib/json.server";
/** GET /api/geocode.php?lat=&lon=: the nearest city (offline, from the cities table). Reads only; the profile form stores it. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { lazy } from "~/lib/lazy";
import { getMember } from "~/models/session.server";
import { nearestCity } from "~/models/geo.server";
import { getBrandByHost } from "~/models/brand.server";
import { resolveLanguage } from "~/lib/i18n.server";

const Query = lazy(() =>
  z.object({ lat: z.coerce.number().min(-90).max(90), lon: z.coerce.number().min(-180).max(180) }),
);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [member, brand] = await Promise.all([
    getMember(request, context),
    getBrandByHost(context.env, request.headers.get("Host")),
  ]);
  if (!member) return authenticationRequired();
  const parsed = Query().safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) return jsonResponse({ error: "invalid_position" }, { status: 400 });
  const place = await nearestCity(
    context.env.DB,
    parsed.data.lat,
    parsed.data.lon,
    await resolveLanguage(request, brand.domainLanguage),
  );
  if (!place) return jsonResponse({ error: "not_found" }, { status: 404 });
  return jsonResponse(place, { headers: { "Cache-Control": "private, max-age=3600" } });
}
