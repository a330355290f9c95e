/**
 * A click on the cams promo block (decision 160): counted for the brand, then the member is sent on
 * to the partner's configured URL with its tracking parameters. POST only (a form's button), so
 * neither a prefetch nor a crawler following links counts or is sent on; only a member to whom the
 * brand shows the block. The answer is a tiny page that refreshes to the partner (works without
 * JavaScript): a redirect would be blocked, as the pages' CSP allows forms to post only to this site
 * (form-action 'self' also covers where the post's answer redirects).
 */
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { readForm } from "~/lib/body.server";
import { pageContext } from "~/lib/page.server";
import { CAMS_PLACEMENTS, camsPromoClick } from "~/models/cams-promo.server";
import { requireMember } from "~/models/session.server";

export function loader() {
  return new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { brand, country, lng, t } = await pageContext(request, context, "offers");
  const form = await readForm(request, context);
  const placement = z.enum(CAMS_PLACEMENTS).safeParse(form.get("placement"));
  if (!placement.success) {
    return new Response(t("input:body.malformed"), {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const target = await camsPromoClick(context.env.DB, brand, {
    member,
    country,
    placement: placement.data,
    userAgent: request.headers.get("User-Agent") ?? "",
  });
  if (!target) throw new Response("Not found", { status: 404 });
  const url = escapeHtml(target);
  const html =
    `<!doctype html><html lang="${escapeHtml(lng)}"><head><meta charset="utf-8"><meta name="robots" content="noindex">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta http-equiv="refresh" content="0;url=${url}">` +
    `<title>${escapeHtml(t("cams.leaving"))}</title></head><body style="font-family:system-ui,sans-serif;padding:2rem;text-align:center">` +
    `<p>${escapeHtml(t("cams.leaving"))}</p><p><a href="${url}" rel="noopener noreferrer">${escapeHtml(t("cams.continue"))}</a></p></body></html>`;
  return new Response(html, {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "private, no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
