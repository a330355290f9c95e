import { authenticationRequired } from "~/lib/json.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { isLanguage, localeCookie } from "~/lib/i18n.server";
import { pageContext } from "~/lib/page.server";
import { login, setLanguage, userJson, withinRateLimit } from "~/models/accounts.server";
import { startSession } from "~/models/auth.server";
import { getMember, type Member } from "~/models/session.server";
import { deleteSubscriptions, saveSubscription, subscriptionSchema, vapidKeys } from "~/models/push.server";

/**
 * SPEC section 7: the current member (GET), login (POST), the chosen language (PUT).
 * With ?push=1: the VAPID public key and whether the member has push (GET), saves a device's push
 * subscription (POST), turns push off for one device ({ endpoint }) or all (DELETE).
 */
const json = (body: unknown, status = 200, headers?: Headers) => {
  const h = new Headers(headers);
  h.set("Content-Type", "application/json; charset=utf-8");
  h.set("Cache-Control", "private, no-store");
  return new Response(JSON.stringify(body), { status, headers: h });
};


export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await getMember(request, context);
  if (!member) return authenticationRequired(401);
  if (new URL(request.url).searchParams.has("push")) {
    const { publicKey } = await vapidKeys(context.env);
    return json({ public_key: publicKey, subscribed: member.pushSubscribed });
  }
  return json({ user: userJson(member) });
}

const MAX_PUSH_BODY = 4096;

/** POST/DELETE ?push=1: the body is the PushSubscription (or { subscription }), at most 4 KB. */
async function pushAction(request: Request, member: Member, db: D1Database) {
  const raw = await request.text().catch(() => "");
  if (raw.length > MAX_PUSH_BODY) return json({ error: "invalid_subscription" }, 413);
  let data: Record<string, unknown> = {};
  try {
    data = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  } catch {
    return json({ error: "invalid_subscription" }, 400);
  }
  if (request.method === "DELETE") {
    const endpoint = typeof data?.endpoint === "string" ? data.endpoint : undefined;
    await deleteSubscriptions(db, member.id, endpoint);
    return json({ subscribed: false });
  }
  const parsed = subscriptionSchema.safeParse(data && typeof data === "object" && "subscription" in data ? data.subscription : data);
  if (!parsed.success) return json({ error: "invalid_subscription" }, 400);
  await saveSubscription(db, member.id, parsed.data);
  return json({ subscribed: true });
}

const credentials = z.object({ email: z.string().trim().min(1).max(254), password: z.string().min(1).max(200) });

/** JSON or form-encoded bodies are both accepted. */
async function body(request: Request): Promise<Record<string, unknown>> {
  if ((request.headers.get("Content-Type") ?? "").includes("application/json")) {
    return ((await request.json().catch(() => ({}))) ?? {}) as Record<string, unknown>;
  }
  return Object.fromEntries(await request.formData().catch(() => new FormData()));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { brand, t } = await pageContext(request, context, "account");
  if (request.method === "PUT") {
    const member = await getMember(request, context);
    if (!member) return authenticationRequired(401);
    const { language } = await body(request);
    if (!isLanguage(language)) return json({ error: "invalid_language" }, 400);
    await setLanguage(context.env.DB, member.id, language);
    const updated: Member = { ...member, language };
    return json({ user: userJson(updated) }, 200, new Headers({ "Set-Cookie": await localeCookie.serialize(language) }));
  }
  if (new URL(request.url).searchParams.has("push") && (request.method === "POST" || request.method === "DELETE")) {
    const member = await getMember(request, context);
    if (!member) return authenticationRequired(401);
    return pushAction(request, member, context.env.DB);
  }
  if (request.method !== "POST") return json({ error: "method_not_allowed" }, 405);
  const parsed = credentials.safeParse(await body(request));
  if (!parsed.success) return json({ error: "login_failed", message: t("errors.loginFailed") }, 400);
  if (!(await withinRateLimit(context.env, request, "login", parsed.data.email))) {
    return json({ error: "rate_limited", message: t("errors.rateLimited") }, 429);
  }
  const result = await login(context.env, brand.id, parsed.data.email, parsed.data.password);
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
