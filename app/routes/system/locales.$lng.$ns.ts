import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { isLanguage, loadMessages, resources } from "~/lib/i18n.server";
import { jsonResponse } from "~/lib/json.server";

/** One language's namespace for the browser, loaded on demand (docs/product/api.md §7). */
export async function loader({ params }: LoaderFunctionArgs) {
  const lng = params.lng;
  if (isLanguage(lng)) await loadMessages(lng);
  const data = isLanguage(lng) ? (resources[lng] as Record<string, unknown>)[params.ns ?? ""] : undefined;
  if (!data) return new Response("Not found", { status: 404 });
  return jsonResponse(data, { headers: { "Cache-Control": "public, max-age=300, stale-while-revalidate=86400" } });
}
