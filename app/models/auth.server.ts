/**
 * Authentication glue between the accounts rules and the session: starting a session after a
 * login, sign-up, reset or reactivation sets the auth cookie, the member's language cookie and the
 * device cookie that makes this browser a known device of theirs (the lockout spares it).
 */
import { createCookie, type AppLoadContext } from "@remix-run/cloudflare";
import { isLanguage, localeCookie } from "~/lib/i18n.server";
import { randomId } from "~/lib/password";
import { clientIp, type LoginClient } from "./accounts.server";
import { linkOrigin, type Brand } from "./brand.server";
import { createSession } from "./session.server";

const DEVICE_DAYS = 365;

/** A signed, long-lived cookie naming this browser and the member who last logged in with it (decision 088). */
function deviceCookie(context: AppLoadContext) {
  return createCookie("dev", {
    httpOnly: true,
    secure: true,
    sameSite: "lax",
    path: "/",
    maxAge: DEVICE_DAYS * 86_400,
    secrets: [context.env.SESSION_SECRET],
  });
}

async function readDevice(request: Request, context: AppLoadContext): Promise<LoginClient["device"]> {
  const value: unknown = await deviceCookie(context).parse(request.headers.get("Cookie"));
  if (!value || typeof value !== "object") return null;
  const { id, userId } = value as Record<string, unknown>;
  return typeof id === "string" && typeof userId === "string" ? { id, userId } : null;
}

/** Who is logging in, for the lockout: client address, known device, and the origin of mailed links. */
export async function loginClient(request: Request, context: AppLoadContext, brand: Pick<Brand, "domain">): Promise<LoginClient> {
  return { ip: clientIp(request), device: await readDevice(request, context), origin: linkOrigin(brand, context.env, request) };
}

/** Headers that log the browser in (and show the site in the member's saved language). */
export async function startSession(request: Request, context: AppLoadContext, userId: string, language?: string): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", await createSession(context, userId, request.headers.get("User-Agent") ?? ""));
  if (isLanguage(language)) headers.append("Set-Cookie", await localeCookie.serialize(language));
  const device = await readDevice(request, context);
  headers.append("Set-Cookie", await deviceCookie(context).serialize({ id: device?.id ?? randomId(16), userId }));
  return headers;
}
