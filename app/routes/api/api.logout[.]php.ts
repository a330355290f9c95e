import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { jsonResponse } from "~/lib/json.server";
import { pageContext } from "~/lib/page.server";
import { safeRedirect } from "~/lib/request.server";
import { destroySession } from "~/models/session.server";
import { readForm } from "~/lib/body.server";

/** Logout: revokes the server-side session and clears the cookie (the menu's form posts here). */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context);
  const headers = { "Set-Cookie": await destroySession(request, context) };
  if ((request.headers.get("Accept") ?? "").includes("application/json")) {
    return jsonResponse({ ok: true }, { headers });
  }
  return redirect(safeRedirect(form.get("redirectTo"), "/"), { headers });
}

const escape = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/**
 * GET /api/logout.php (docs/product/api.md §7) must not change state (docs/architecture/security.md §5; link prefetchers
 * would log members out): it answers a tiny page whose form posts the logout, submitted at once
 * by a nonce'd script, or by a click without JavaScript. Decision 041.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  // The site's own client (docs/product/api.md §7) logs out with a GET: a script asking for JSON or sending
  // the request-type header, from this site. Prefetchers and link scanners ask for neither.
  const site = request.headers.get("Sec-Fetch-Site");
  const fromClient =
    (request.headers.get("Accept") ?? "").includes("application/json") || request.headers.has("X-Request-Type");
  if (fromClient && (!site || site === "same-origin")) {
    const headers = {
      "Set-Cookie": await destroySession(request, context),
      "Content-Type": "application/json",
      "Cache-Control": "no-store",
    };
    return new Response(JSON.stringify({ ok: true }), { headers });
  }
  const { t, lng } = await pageContext(request, context, "account");
  const nonce = escape(context.nonce);
  const html = `<!doctype html><html lang="${lng}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(t("logout.title"))}</title><meta name="robots" content="noindex"></head>
<body style="font-family:sans-serif;display:grid;place-items:center;min-height:90vh">
<form method="post" action="/api/logout.php" id="logout"><input type="hidden" name="redirectTo" value="/">
<p>${escape(t("logout.confirm"))}</p><button type="submit">${escape(t("logout.submit"))}</button></form>
<script nonce="${nonce}">document.getElementById("logout").submit();</script></body></html>`;
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}
