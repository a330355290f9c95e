/**
 * GET /offline: the page the service worker (public/sw.js) caches at install and shows when a
 * navigation finds no network. Self-contained (inline styles, no scripts), in the visitor's language.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { pageContext } from "~/lib/page.server";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { brand, lng, t } = await pageContext(request, context, "notify");
  const html = `<!doctype html><html lang="${lng}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#c8102e"><title>${esc(t("offline.title"))} – ${esc(brand.name)}</title>
<style>body{margin:0;font-family:system-ui,sans-serif;background:#f7f5f6;color:#222;display:grid;place-items:center;min-height:100vh}
main{max-width:26rem;margin:1rem;padding:2rem;background:#fff;border-radius:16px;box-shadow:0 4px 24px rgba(0,0,0,.08);text-align:center}
.brand{color:#c8102e;font-weight:700;font-size:1.3rem}h1{font-size:1.4rem;margin:.8rem 0}
a{display:inline-block;margin-top:1rem;padding:.7rem 1.4rem;background:#c8102e;color:#fff;border-radius:999px;text-decoration:none;font-weight:600}</style></head>
<body><main data-testid="offline-page"><div class="brand">${esc(brand.name)}</div><h1>${esc(t("offline.title"))}</h1><p>${esc(t("offline.text"))}</p>
<a href="">${esc(t("offline.retry"))}</a></main></body></html>`;
  return new Response(html, {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "private, no-cache" },
  });
}
