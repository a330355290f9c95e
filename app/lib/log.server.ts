/**
 * One small logger. Each line is one JSON object, which Workers Logs indexes field by field, so an
 * operator finds a failure by its request id (`cf-ray`) or conversation id. Failures that must not
 * fail what caused them (a notification, a mail after the answer) are logged here, never dropped.
 */
export type LogFields = {
  requestId?: string;
  conversationId?: string;
  memberId?: string;
  [field: string]: string | number | boolean | null | undefined;
};

/**
 * The one place that writes an error line (a lint rule refuses `console.error` elsewhere in app/). `error`
 * is undefined for a failure that has no thrown value (a provider's answer that does not match ours).
 */
export function logError(event: string, error: unknown, fields: LogFields = {}): void {
  const e =
    error === undefined
      ? {}
      : error instanceof Error
        ? { error: `${error.name}: ${error.message}`, stack: error.stack }
        : { error: describe(error) };
  // oxlint-disable-next-line no-console -- the one writer of error lines
  console.error(JSON.stringify({ level: "error", event, ...fields, ...e }));
}

/** Something worth seeing that is not a failure of ours (a refused request, a discount no longer allowed). */
export function logWarning(event: string, fields: LogFields = {}): void {
  console.warn(JSON.stringify({ level: "warn", event, ...fields }));
}

/** A thrown value that is no Error (a Response, Remix's error response) in words, never "[object Object]". */
function describe(error: unknown): string {
  const refusal = refusalOf(error);
  if (refusal) return `${refusal.status} ${refusal.reason}`;
  if (error !== null && typeof error === "object") {
    try {
      return JSON.stringify(error);
    } catch {
      return Object.prototype.toString.call(error);
    }
  }
  return String(error);
}

/**
 * The status and reason of an error response (a thrown Response, or Remix's ErrorResponse for a
 * thrown Response, an unknown URL or a missing action), or null for anything else.
 */
export function refusalOf(error: unknown): { status: number; reason: string } | null {
  if (error === null || typeof error !== "object") return null;
  const e = error as { status?: unknown; statusText?: unknown; data?: unknown; error?: unknown };
  if (typeof e.status !== "number") return null;
  const reason =
    e.error instanceof Error
      ? e.error.message
      : typeof e.data === "string" && e.data
        ? e.data
        : typeof e.statusText === "string"
          ? e.statusText
          : "";
  return { status: e.status, reason: reason.slice(0, 300) };
}

/** The request's id in Workers Logs: Cloudflare's ray id, or a random one locally. */
export function requestIdOf(request: Request): string {
  return request.headers.get("cf-ray") ?? crypto.randomUUID();
}
