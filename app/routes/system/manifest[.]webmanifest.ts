import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { pageContext } from "~/lib/page.server";

/** The web app manifest, per brand: one Worker serves several names, so it cannot be a static file. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { brand, lng } = await pageContext(request, context);
  const manifest = {
    name: brand.indexTitle,
    short_name: brand.name,
    description: brand.description,
    lang: lng,
    dir: "ltr",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#faf7f8",
    theme_color: "#c8102e",
    icons: [
      { src: "/favicon.svg", sizes: "any", type: "image/svg+xml" },
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: {
      "Content-Type": "application/manifest+json; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
      Vary: "Cookie",
    },
  });
}
