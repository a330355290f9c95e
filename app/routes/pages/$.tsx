import type { LoaderFunctionArgs } from "@remix-run/cloudflare";

/**
 * Any URL no other route claims. Remix runs no loader for an unmatched URL, so without this the 404
 * page would render without the root data (no top bar, footer or language); throwing here keeps them.
 */
export function loader(_: LoaderFunctionArgs) {
  throw new Response("Not found", { status: 404 });
}

export default function NotFound() {
  return null;
}
