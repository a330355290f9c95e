/**
 * Every language's messages for the server (decision 171): the Worker carries each language as a
 * function returning its messages (app/lib/resources.generated.ts) and an isolate calls it the first
 * time the language is needed, so a cold start builds none of the eleven and a busy isolate only
 * those it serves.
 */
import { MESSAGES, NAMESPACES } from "./resources.generated";

/** A language's namespaces, each a tree of messages. */
export type Messages = Record<string, Record<string, unknown>>;

/** A record whose values are built by their loader on first access, once. */
export function lazyMessages<L extends string>(loaders: Record<L, () => Messages>): Record<L, Messages> {
  const record = {} as Record<L, Messages>;
  for (const lng of Object.keys(loaders) as L[])
    Object.defineProperty(record, lng, {
      enumerable: true,
      configurable: true,
      get() {
        const value = loaders[lng]();
        Object.defineProperty(record, lng, { value, enumerable: true });
        return value;
      },
    });
  return record;
}

export const resources = lazyMessages(MESSAGES);
export { NAMESPACES };
