/**
 * Errors to Sentry through its SDK (@sentry/cloudflare, decision 231 brings it back after decision 188):
 * stack traces the uploaded source maps resolve (scripts/deploy.mjs), the release they belong to, and
 * the request's method and path. Only when the SENTRY_DSN secret is set: without it the SDK is never
 * loaded (a dynamic import, so the bundle carries it but start-up evaluates none of it) and nothing is
 * wrapped. No personal data leaves: no user, IP address, cookies, headers, query strings or bodies
 * (scrubEvent, applied to every event). Reporting never fails what it reports.
 */
import type { Breadcrumb, ErrorEvent } from "@sentry/cloudflare";
import type { Env } from "./env";
import { logWarning } from "./log.server";

export type SentryEnv = Pick<Env, "SENTRY_DSN" | "SENTRY_RELEASE" | "ENVIRONMENT">;

/** A URL without its query string and fragment (reset and sign-in links carry tokens there). */
function bare(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, "");
  }
}

/** The event with only what is no personal data: the request's method and path, tags, the stack. */
export function scrubEvent<E extends ErrorEvent>(event: E): E {
  delete event.user;
  delete event.server_name;
  if (event.request) {
    event.request = {
      method: event.request.method,
      url: event.request.url ? bare(event.request.url) : undefined,
    };
  }
  if (event.breadcrumbs) event.breadcrumbs = event.breadcrumbs.map(scrubBreadcrumb);
  return event;
}

/** A breadcrumb keeps its kind, message and a fetch's method, bare URL and status; nothing else. */
export function scrubBreadcrumb(crumb: Breadcrumb): Breadcrumb {
  const data = crumb.data ?? {};
  const kept: Record<string, unknown> = {};
  if (typeof data.url === "string") kept.url = bare(data.url);
  if (typeof data.method === "string") kept.method = data.method;
  if (typeof data.status_code === "number") kept.status_code = data.status_code;
  return { ...crumb, message: crumb.category === "console" ? undefined : crumb.message, data: kept };
}

/** The SDK's options for this deployment: errors only (no tracing), scrubbed. */
export function sentryOptions(env: SentryEnv) {
  return {
    dsn: env.SENTRY_DSN,
    environment: env.ENVIRONMENT,
    release: env.SENTRY_RELEASE,
    sendDefaultPii: false,
    beforeSend: scrubEvent,
    beforeBreadcrumb: scrubBreadcrumb,
  };
}

type Sdk = typeof import("@sentry/cloudflare");
let sdk: Promise<Sdk> | undefined;
const loadSdk = () => (sdk ??= import("@sentry/cloudflare"));

/**
 * The Worker's handlers, run inside the SDK's request scope when SENTRY_DSN is set (errors that escape
 * are reported with the request, then thrown on); the handlers themselves otherwise.
 */
export function withSentryWhenSet<H extends ExportedHandler<Env, never>>(handler: H): H {
  let wrapped: Promise<H> | undefined;
  const sentried = (env: Env) =>
    env.SENTRY_DSN
      ? (wrapped ??= loadSdk().then(
          ({ withSentry }) =>
            withSentry<Env>((e) => sentryOptions(e), { ...handler } as unknown as ExportedHandler<Env>) as unknown as H,
        ))
      : null;
  const out = { ...handler };
  for (const name of ["fetch", "scheduled", "queue"] as const) {
    const own = handler[name] as ((a: unknown, env: Env, ctx: ExecutionContext) => unknown) | undefined;
    if (!own) continue;
    (out as Record<string, unknown>)[name] = (a: unknown, env: Env, ctx: ExecutionContext) => {
      const w = sentried(env);
      if (!w) return own.call(handler, a, env, ctx);
      return w.then((h) => (h[name] as typeof own).call(h, a, env, ctx));
    };
  }
  return out;
}

/**
 * Reports an error that was caught and answered (a 500 page, a cron run, a queue batch) with tags such
 * as the request id; nothing without SENTRY_DSN. Inside a handler wrapped above it joins that request's
 * scope; the SDK flushes it when the handler ends.
 */
export async function reportError(env: SentryEnv, error: unknown, tags: Record<string, string> = {}): Promise<void> {
  if (!env.SENTRY_DSN) return;
  try {
    const { withScope, captureException } = await loadSdk();
    withScope((scope) => {
      scope.setTags(tags);
      captureException(error);
    });
  } catch (e) {
    logWarning("sentry.unreachable", { error: String(e) });
  }
}
