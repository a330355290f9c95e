/**
 * Every language's messages for the server (decision 171): the Worker carries each language as one
 * JSON text (app/lib/resources.generated.ts) and an isolate parses a language the first time it is
 * needed, so a cold start evaluates none of the eleven and a busy isolate only those it serves.
 */
import { MESSAGES_JSON, NAMESPACES } from "./resources.generated";

/** A language's namespaces, each a tree of messages. */
export type Messages = Record<string, Record<string, unknown>>;

/** A record whose values are parsed from their JSON text on first access, once. */
export function lazyMessages<L extends string>(texts: Record<L, string>): Record<L, Messages> {
  const record = {} as Record<L, Messages>;
  for (const lng of Object.keys(texts) as L[])
    Object.defineProperty(record, lng, {
      enumerable: true,
      configurable: true,
      get() {
        const value = JSON.parse(texts[lng]) as Messages;
        Object.defineProperty(record, lng, { value, enumerable: true });
        return value;
      },
    });
  return record;
}

export const resources = lazyMessages(MESSAGES_JSON);
export { NAMESPACES };
