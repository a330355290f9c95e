import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { isLanguage, localeCookie } from "~/lib/i18n.server";
import { safeRedirect } from "~/lib/request.server";
import { getMember } from "~/models/session.server";
import { setLanguage } from "~/models/accounts/settings.server";
import { readForm } from "~/lib/body.server";

/** Switches the language: remembered in a 365-day cookie, and on the member's account when logged in. */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context);
  const lng = form.get("lng");
  const to = safeRedirect(form.get("redirectTo"));
  if (!isLanguage(lng)) return redirect(to);
  const member = await getMember(request, context);
  if (member) await setLanguage(context.env.DB, member.id, lng);
  return redirect(to, { headers: { "Set-Cookie": await localeCookie.serialize(lng) } });
}

export function loader(_: LoaderFunctionArgs) {
  return redirect("/");
}
