import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { safeRedirect } from "~/lib/request.server";
import { SITE_ENTRY_COOKIE } from "~/lib/site-entry";
import { readForm } from "~/lib/body.server";

/** Accepting the site-entry warning stores the skip flag with its timestamp (one year). */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context);
  const cookie = `${SITE_ENTRY_COOKIE}=${Date.now()}; Path=/; Max-Age=31536000; SameSite=Lax; Secure`;
  return redirect(safeRedirect(form.get("redirectTo")), { headers: { "Set-Cookie": cookie } });
}
