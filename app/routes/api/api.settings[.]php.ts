import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { jsonResponse } from "~/lib/json.server";
import { resolveCountry } from "~/lib/request.server";
import { getBrandByHost, settingsOf } from "~/models/brand.server";

/** GET /api/settings.php: the brand's settings for the requesting host, or for `_force_domain`. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const host = url.searchParams.get("_force_domain") || request.headers.get("Host");
  const brand = await getBrandByHost(context.env, host);
  const country = resolveCountry(request, context);
  const selected = url.searchParams.get("country")?.toUpperCase();
  return jsonResponse(
    settingsOf(brand, { country, selectedCountry: selected && brand.countries.includes(selected) ? selected : null }),
  );
}
