import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { jsonResponse } from "~/lib/json.server";
import { getBrandByHost } from "~/models/brand.server";
import { regionsByCountry } from "~/models/geo.server";

/** GET /api/regions.php: the regions of each of the brand's countries. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const brand = await getBrandByHost(context.env, request.headers.get("Host"));
  return jsonResponse({ regions: await regionsByCountry(context.env.DB, brand.countries) }, { maxAge: 3600 });
}
