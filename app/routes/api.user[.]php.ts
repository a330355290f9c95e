import { authenticationRequired } from "~/lib/json.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { isLanguage, localeCookie } from "~/lib/i18n.server";
import { pageContext } from "~/lib/page.server";
import { readFields } from "~/lib/body.server";
import { login, setLanguage, userJson, withinRateLimit } from "~/models/accounts.server";
import { loginClient, startSession } from "~/models/auth.server";
import { getMember, type Member } from "~/models/session.server";

/** SPEC section 7: the current member (GET), login (POST), the chosen language (PUT). */
const json = (body: unknown, status = 200, headers?: Headers) => {
  const h = new Headers(headers);
  h.set("Content-Type", "application/json; charset=utf-8");
  h.set("Cache-Control", "private, no-store");
  return new Response(JSON.stringify(body), { status, headers: h });
};


export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await getMember(request, context);
  return member ? json({ user: userJson(member) }) : authenticationRequired(401);
}

const credentials = z.object({ email: z.string().trim().min(1).max(254), password: z.string().min(1).max(200) });

export async function action({ request, context }: ActionFunctionArgs) {
  const { brand, t } = await pageContext(request, context, "account");
  if (request.method === "PUT") {
    const member = await getMember(request, context);
    if (!member) return authenticationRequired(401);
    const { language } = await readFields(request, context);
    if (!isLanguage(language)) return json({ error: "invalid_language" }, 400);
    await setLanguage(context.env.DB, member.id, language);
    const updated: Member = { ...member, language };
    return json({ user: userJson(updated) }, 200, new Headers({ "Set-Cookie": await localeCookie.serialize(language) }));
  }
  if (request.method !== "POST") return json({ error: "method_not_allowed" }, 405);
  if (new URL(request.url).searchParams.has("push")) return json({ error: "not_implemented" }, 501);
  const parsed = credentials.safeParse(await readFields(request, context));
  if (!parsed.success) return json({ error: "login_failed", message: t("errors.loginFailed") }, 400);
  if (!(await withinRateLimit(context.env, request, "login", parsed.data.email))) {
    return json({ error: "rate_limited", message: t("errors.rateLimited") }, 429);
  }
  const result = await login(context.env, brand, parsed.data.email, parsed.data.password, await loginClient(request, context, brand));
  if (!result.ok) {
    return result.reason === "blocked"
      ? json({ error: "account_blocked", minutes: result.minutes, message: t("errors.blocked", { minutes: result.minutes }) }, 403)
      : json({ error: "login_failed", message: t("errors.loginFailed") }, 401);
  }
  const headers = await startSession(request, context, result.userId, result.language);
  const member = await getMember(new Request(request.url, { headers: { Cookie: cookiePairs(headers) } }), context);
  return json({ user: member && userJson(member) }, 200, headers);
}

/** The cookies just set, as a Cookie header (to read the new session back). */
function cookiePairs(headers: Headers): string {
  return headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}
