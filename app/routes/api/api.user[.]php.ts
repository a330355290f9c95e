import { authenticationRequired, jsonResponse } from "~/lib/json.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { z } from "zod";
import { lazy } from "~/lib/lazy";
import { isLanguage, localeCookie } from "~/lib/i18n.server";
import { pageContext } from "~/lib/page.server";
import { readFields } from "~/lib/body.server";
import { setLanguage } from "~/models/accounts/settings.server";
import { userJson } from "~/models/accounts/export.server";
import { authenticate, startSession } from "~/models/auth.server";
import { getMember, type Member } from "~/models/session.server";
import { deleteSubscriptions, saveSubscription, subscriptionSchema, vapidKeys } from "~/models/push.server";

/**
 * docs/product/api.md §7: the current member (GET), login (POST), the chosen language (PUT).
 * With ?push=1: the VAPID public key and whether the member has push (GET), saves a device's push
 * subscription (POST), turns push off for one device ({ endpoint }) or all (DELETE).
 */
const answer = (body: unknown, status = 200, headers?: Headers) => jsonResponse(body, { status, headers });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await getMember(request, context);
  if (!member) return authenticationRequired(401);
  if (new URL(request.url).searchParams.has("push")) {
    const { publicKey } = await vapidKeys(context.env);
    return answer({ public_key: publicKey, subscribed: member.pushSubscribed });
  }
  return answer({ user: userJson(member) });
}

const MAX_PUSH_BODY = 4096;

/** POST/DELETE ?push=1: the body is the PushSubscription (or { subscription }), at most 4 KB, read by the shared parser. */
async function pushAction(request: Request, context: ActionFunctionArgs["context"], member: Member, db: D1Database) {
  const data = await readFields(request, context, { maxBytes: MAX_PUSH_BODY });
  if (request.method === "DELETE") {
    const endpoint = typeof data?.endpoint === "string" ? data.endpoint : undefined;
    await deleteSubscriptions(db, member.id, endpoint);
    return answer({ subscribed: false });
  }
  const parsed = subscriptionSchema().safeParse(
    data && typeof data === "object" && "subscription" in data ? data.subscription : data,
  );
  if (!parsed.success) return answer({ error: "invalid_subscription" }, 400);
  await saveSubscription(db, member.id, parsed.data);
  return answer({ subscribed: true });
}

const credentials = lazy(() =>
  z.object({ email: z.string().trim().min(1).max(254), password: z.string().min(1).max(200) }),
);

export async function action({ request, context }: ActionFunctionArgs) {
  const { t } = await pageContext(request, context, "account");
  if (request.method === "PUT") {
    const member = await getMember(request, context);
    if (!member) return authenticationRequired(401);
    const { language } = await readFields(request, context);
    if (!isLanguage(language)) return answer({ error: "invalid_language" }, 400);
    await setLanguage(context.env.DB, member.id, language);
    const updated: Member = { ...member, language };
    return answer(
      { user: userJson(updated) },
      200,
      new Headers({ "Set-Cookie": await localeCookie.serialize(language) }),
    );
  }
  if (new URL(request.url).searchParams.has("push") && (request.method === "POST" || request.method === "DELETE")) {
    const member = await getMember(request, context);
    if (!member) return authenticationRequired(401);
    return pushAction(request, context, member, context.env.DB);
  }
  if (request.method !== "POST") return answer({ error: "method_not_allowed" }, 405);
  const parsed = credentials().safeParse(await readFields(request, context));
  if (!parsed.success) return answer({ error: "login_failed", message: t("errors.loginFailed") }, 400);
  const formData = new FormData();
  formData.set("email", parsed.data.email);
  formData.set("password", parsed.data.password);
  const result = await authenticate("form", request, context, formData);
  if (!result.ok) {
    if (result.reason === "rate_limited")
      return answer({ error: "rate_limited", message: t("errors.rateLimited") }, 429);
    if (result.reason === "suspended") return answer({ error: "account_suspended", statement: result.statement }, 403);
    return result.reason === "blocked"
      ? answer(
          {
            error: "account_blocked",
            minutes: result.minutes,
            message: t("errors.blocked", { minutes: result.minutes }),
          },
          403,
        )
      : answer({ error: "login_failed", message: t("errors.loginFailed") }, 401);
  }
  const headers = await startSession(request, context, result.userId, result.language);
  const member = await getMember(new Request(request.url, { headers: { Cookie: cookiePairs(headers) } }), context);
  return answer({ user: member && userJson(member) }, 200, headers);
}

/** The cookies just set, as a Cookie header (to read the new session back). */
function cookiePairs(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
