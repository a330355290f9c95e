/**
 * Authentication: one remix-auth Authenticator in front of the server-side sessions (decision 141).
 * A strategy only answers "who is this?" by calling the accounts rules (login, lockout, throttles
 * stay in accounts/login.server.ts); the session is then started here, in the `sessions` table, the same
 * way for every strategy and for sign-up, reset and reactivation, together with the member's
 * language cookie and the device cookie that makes this browser a known device of theirs (the
 * lockout spares it, decision 088).
 */
import { createCookie, createCookieSessionStorage, type AppLoadContext } from "@remix-run/cloudflare";
import { Authenticator, AuthorizationError } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { guardedSessionStorage, readSignedCookie } from "~/lib/cookies.server";
import type { Env } from "~/lib/env";
import { isLanguage, localeCookie } from "~/lib/i18n.server";
import { randomId } from "~/lib/password";
import { clientIp, login, withinRateLimit, type LoginClient } from "./accounts/login.server";
import { getBrandByHost, linkOrigin, type Brand } from "./brand.server";
import { createSession } from "./session.server";
import { carryVisitorProof } from "./age-check.server";
import { operatorDevice, operatorLogin, type Operator } from "./admin/operators.server";
import { activeSuspension, liftEndedRestrictions, statementToken } from "./moderation.server";

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
  const value = await readSignedCookie(request, deviceCookie(context));
  if (!value || typeof value !== "object") return null;
  const { id, userId } = value as Record<string, unknown>;
  return typeof id === "string" && typeof userId === "string" ? { id, userId } : null;
}

/** Who is logging in, for the lockout: client address, known device, and the origin of mailed links. */
export async function loginClient(
  request: Request,
  context: AppLoadContext,
  brand: Pick<Brand, "domain">,
): Promise<LoginClient> {
  return {
    ip: clientIp(request),
    device: await readDevice(request, context),
    origin: linkOrigin(brand, context.env, request),
  };
}

/** The member a strategy vouches for. */
export type AuthUser = { userId: string; language: string };

/** Why a login was refused: the route shows the spec's text for each. */
export type AuthRefusal =
  | { reason: "failed" }
  | { reason: "blocked"; minutes: number }
  | { reason: "rate_limited" }
  /** `statement`: the page (path) that shows the member the statement of reasons. */
  | { reason: "suspended"; statement: string };

/** Thrown by a strategy's verify; remix-auth hands it back as the AuthorizationError's cause. */
class LoginRefused extends Error {
  constructor(readonly refusal: AuthRefusal) {
    super(refusal.reason);
  }
}

/** What authenticate() passes to the strategies (remix-auth's `context`). */
type StrategyContext = AppLoadContext & { formData?: FormData };

/** E-mail and password, from the login form or from POST /api/user.php. */
const formStrategy = new FormStrategy<AuthUser>(async ({ form, context, request }) => {
  const strategyContext = context as StrategyContext;
  const { env } = strategyContext;
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  if (!(await withinRateLimit(env, request, "login", email))) throw new LoginRefused({ reason: "rate_limited" });
  const brand = await getBrandByHost(env, request.headers.get("Host"));
  const result = await login(env, brand, email, password, await loginClient(request, strategyContext, brand));
  if (!result.ok) throw new LoginRefused(result);
  // A suspended or banned member is not logged in: the route shows the statement of reasons instead
  // (decision 167); a ban on the ban page, with the reason and the appeal link and nothing else (decision 173).
  const active = await activeSuspension(env.DB, result.userId);
  if (active) {
    const token = encodeURIComponent(await statementToken(env.SESSION_SECRET, active.id));
    throw new LoginRefused({
      reason: "suspended",
      statement: active.ban ? `/pages/ban?statement=${token}` : `/statement/${token}`,
    });
  }
  await liftEndedRestrictions(env.DB, undefined, result.userId);
  return { userId: result.userId, language: result.language };
});

/**
 * Operators (the /admin console, decision 167): e-mail, password and TOTP code against the
 * operators table; never a member. Same throttle, lockout rules and refusals as members'.
 */
const operatorStrategy = new FormStrategy<OperatorAuth>(async ({ form, context, request }) => {
  const { env } = context as StrategyContext;
  const email = String(form.get("email") ?? "");
  if (!(await withinRateLimit(env, request, "admin-login", email))) throw new LoginRefused({ reason: "rate_limited" });
  const result = await operatorLogin(env, email, String(form.get("password") ?? ""), String(form.get("code") ?? ""), {
    ip: clientIp(request),
    device: await operatorDevice(request, { env }),
  });
  if (!result.ok) throw new LoginRefused(result);
  return { operator: result.operator };
});

/** The operator the "operator" strategy vouches for. */
export type OperatorAuth = { operator: Operator };

type StrategyUsers = { form: AuthUser; operator: OperatorAuth };
export type StrategyName = keyof StrategyUsers;

// The Authenticator's own session storage only carries the state of redirect-based strategies
// (OAuth2's `state`) between two requests; the login session itself lives in the sessions table.
const authenticators = new WeakMap<Env, Authenticator<AuthUser | OperatorAuth>>();

function authenticatorFor(env: Env): Authenticator<AuthUser | OperatorAuth> {
  let authenticator = authenticators.get(env);
  if (!authenticator) {
    const flowStorage = guardedSessionStorage(
      createCookieSessionStorage({
        cookie: {
          name: "auth_flow",
          httpOnly: true,
          secure: true,
          sameSite: "lax",
          path: "/",
          maxAge: 600,
          secrets: [env.SESSION_SECRET],
        },
      }),
    );
    authenticator = new Authenticator<AuthUser | OperatorAuth>(flowStorage, { throwOnError: true })
      .use(formStrategy, "form")
      .use(operatorStrategy, "operator");
    authenticators.set(env, authenticator);
  }
  return authenticator;
}

/**
 * Runs a strategy. `formData` is the body the route already read (a request body is read once);
 * the strategy gets a copy of the request without it.
 */
export async function authenticate<S extends StrategyName>(
  strategy: S,
  request: Request,
  context: AppLoadContext,
  formData: FormData,
): Promise<({ ok: true } & StrategyUsers[S]) | ({ ok: false } & AuthRefusal)> {
  const bodyless = new Request(request.url, { method: request.method, headers: request.headers });
  try {
    const user = await authenticatorFor(context.env).authenticate(strategy, bodyless, {
      context: { ...context, formData } as StrategyContext,
    });
    return { ok: true, ...(user as StrategyUsers[S]) };
  } catch (error) {
    if (error instanceof AuthorizationError && error.cause instanceof LoginRefused)
      return { ok: false, ...error.cause.refusal };
    throw error;
  }
}

/** Headers that log the browser in (and show the site in the member's saved language). */
export async function startSession(
  request: Request,
  context: AppLoadContext,
  userId: string,
  language?: string,
): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", await createSession(context, userId, request.headers.get("User-Agent") ?? ""));
  if (isLanguage(language)) headers.append("Set-Cookie", await localeCookie.serialize(language));
  const device = await readDevice(request, context);
  headers.append("Set-Cookie", await deviceCookie(context).serialize({ id: device?.id ?? randomId(16), userId }));
  // A proof of age made as a visitor in this browser becomes the member's (decision 185).
  const ageCookie = await carryVisitorProof(context.env.DB, request, userId);
  if (ageCookie) headers.append("Set-Cookie", ageCookie);
  return headers;
}
