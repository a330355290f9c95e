import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { jsonResponse } from "~/lib/json.server";
import { isLanguage, resolveLanguage } from "~/lib/i18n.server";
import { getBrandByHost } from "~/models/brand.server";
import { regionsByCountry } from "~/models/geo.server";

/**
 * GET /api/regions.php?lng=: the regions of each of the brand's countries, named in that language
 * (the page's, passed by the page so each language is its own cached answer; else the visitor's).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const brand = await getBrandByHost(context.env, request.headers.get("Host"));
  const asked = new URL(request.url).searchParams.get("lng");
  const lng = isLanguage(asked) ? asked : await resolveLanguage(request, brand.domainLanguage);
  return jsonResponse({ regions: await regionsByCountry(context.env.DB, brand.countries, lng) }, { maxAge: 3600 });
}
