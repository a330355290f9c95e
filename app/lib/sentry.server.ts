/**
 * Errors to Sentry without its SDK (decision 188). The SDK (@sentry/cloudflare) took about 60 KiB of the
 * Worker's 1.2 MB gzip budget for the little we use: an error with its stack, the environment and the
 * request id, sent only when the SENTRY_DSN secret is set. This posts exactly that as one envelope,
 * Sentry's ingestion format: no personal data, no breadcrumbs, no tracing. Reporting never fails what
 * it reports.
 */
import type { Env } from "./env";
import { logWarning } from "./log.server";

export type SentryEnv = Pick<Env, "SENTRY_DSN" | "ENVIRONMENT">;
type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

/** `https://<key>@<host>[/<path>]/<project>` → the project's envelope endpoint and public key, or null. */
export function parseDsn(dsn: string): { url: string; key: string } | null {
  try {
    const u = new URL(dsn);
    const m = /^(.*)\/(\d+)\/?$/.exec(u.pathname);
    if (!u.username || !m || !/^https?:$/.test(u.protocol)) return null;
    return { url: `${u.protocol}//${u.host}${m[1]}/api/${m[2]}/envelope/`, key: u.username };
  } catch {
    return null;
  }
}

/** V8's "    at fn (file:line:col)" lines as Sentry's frames, oldest call first. */
function framesOf(stack: string | undefined) {
  const frames = (stack ?? "")
    .split("\n")
    .map((line) => /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ function: m[1] ?? "?", filename: m[2], lineno: Number(m[3]), colno: Number(m[4]) }));
  return frames.length > 0 ? { frames: frames.reverse() } : undefined;
}

/** One error event as a Sentry envelope (header, item header, event; one JSON object a line). */
export function sentryEnvelope(
  dsn: string,
  error: unknown,
  o: { environment: string; tags?: Record<string, string>; now?: Date; eventId?: string },
): string {
  const e = error instanceof Error ? error : new Error(typeof error === "string" ? error : "Non-Error thrown");
  const eventId = o.eventId ?? crypto.randomUUID().replaceAll("-", "");
  const now = o.now ?? new Date();
  const event = {
    event_id: eventId,
    timestamp: now.getTime() / 1000,
    platform: "javascript",
    level: "error",
    environment: o.environment,
    tags: o.tags ?? {},
    exception: { values: [{ type: e.name, value: e.message, stacktrace: framesOf(e.stack) }] },
  };
  const header = { event_id: eventId, sent_at: now.toISOString(), dsn };
  return `${JSON.stringify(header)}\n${JSON.stringify({ type: "event" })}\n${JSON.stringify(event)}\n`;
}

/** Sends the error when SENTRY_DSN is set; otherwise nothing. Never throws. */
export async function reportError(
  env: SentryEnv,
  error: unknown,
  tags: Record<string, string> = {},
  fetcher: Fetcher = fetch,
): Promise<void> {
  const target = env.SENTRY_DSN ? parseDsn(env.SENTRY_DSN) : null;
  if (!env.SENTRY_DSN || !target) return;
  try {
    const response = await fetcher(target.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-sentry-envelope",
        "X-Sentry-Auth": `Sentry sentry_version=7, sentry_key=${target.key}, sentry_client=dating-worker/1.0`,
      },
      body: sentryEnvelope(env.SENTRY_DSN, error, { environment: env.ENVIRONMENT, tags }),
    });
    if (!response.ok) logWarning("sentry.refused", { status: response.status });
  } catch (e) {
    logWarning("sentry.unreachable", { error: String(e) });
  }
}
