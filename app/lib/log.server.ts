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

export function logError(event: string, error: unknown, fields: LogFields = {}): void {
  const e = error instanceof Error ? { error: `${error.name}: ${error.message}`, stack: error.stack } : { error: String(error) };
  console.error(JSON.stringify({ level: "error", event, ...fields, ...e }));
}

/** Something an operator should be able to find later that did not fail (e.g. a discount that was not allowed any more). */
export function logWarning(event: string, fields: LogFields = {}): void {
  console.warn(JSON.stringify({ level: "warn", event, ...fields }));
}

/** The request's id in Workers Logs: Cloudflare's ray id, or a random one locally. */
export function requestIdOf(request: Request): string {
  return request.headers.get("cf-ray") ?? crypto.randomUUID();
}
