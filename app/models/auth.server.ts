/**
 * Authentication glue between the accounts rules and the session: starting a session after a
 * login, sign-up, reset or reactivation sets the auth cookie and the member's language cookie.
 */
import type { AppLoadContext } from "@remix-run/cloudflare";
import { isLanguage, localeCookie } from "~/lib/i18n.server";
import { createSession } from "./session.server";

/** Headers that log the browser in (and show the site in the member's saved language). */
export async function startSession(request: Request, context: AppLoadContext, userId: string, language?: string): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", await createSession(context, userId, request.headers.get("User-Agent") ?? ""));
  if (isLanguage(language)) headers.append("Set-Cookie", await localeCookie.serialize(language));
  return headers;
}
