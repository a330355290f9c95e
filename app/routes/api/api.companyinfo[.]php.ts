import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { jsonResponse } from "~/lib/json.server";
import { companyInfoOf, getBrandByHost } from "~/models/brand.server";

/** GET /api/companyinfo.php: the company behind the requesting brand. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const brand = await getBrandByHost(context.env, request.headers.get("Host"));
  return jsonResponse(companyInfoOf(brand), { maxAge: 3600 });
}
