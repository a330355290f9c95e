import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { destroySession } from "~/models/session.server";

/** Logout: revokes the server-side session and clears the cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  return redirect("/", { headers: { "Set-Cookie": await destroySession(request, context) } });
}
