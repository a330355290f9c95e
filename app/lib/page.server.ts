/**
 * What most loaders and actions need first: the brand, the language and a translation function.
 * The brand comes from the isolate cache, so this costs no D1 round trip.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { copyOf, getBrandByHost } from "~/models/brand.server";
import { getFixedT, resolveLanguage } from "./i18n.server";
import { resolveCountry } from "./request.server";

export async function pageContext(request: Request, context: AppLoadContext, ns = "common") {
  const brand = await getBrandByHost(context.env, request.headers.get("Host"));
  const lng = await resolveLanguage(request, brand.domainLanguage);
  const t = await getFixedT(lng, ns, copyOf(brand));
  return { brand, lng, t, country: resolveCountry(request, context) };
}
