/**
 * GET /api/discountcode.php (docs/product/api.md §7): the member's active discount code with the fields of
 * docs/product/data.md §3 (the time bonus if there is one, else the welcome code); `welcome=true` asks for the
 * welcome code. 404 when there is none; the client ignores every failure (docs/product/validation.md §8).
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { authenticationRequired, jsonResponse } from "~/lib/json.server";
import { getBrandByHost } from "~/models/brand.server";
import { discountCodeFields } from "~/models/discounts.server";
import { getMember } from "~/models/session.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [brand, member] = await Promise.all([
    getBrandByHost(context.env, request.headers.get("Host")),
    getMember(request, context),
  ]);
  if (!member) return authenticationRequired();
  const welcome = new URL(request.url).searchParams.get("welcome") === "true";
  const fields = discountCodeFields(member, brand, { welcome });
  return fields ? jsonResponse(fields) : jsonResponse({ error: "not_found" }, { status: 404 });
}
