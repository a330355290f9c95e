/**
 * Every language's messages for the server (decisions 171, 237): the Worker carries each language as a
 * module of its own (app/lib/messages.<lng>.generated.ts, a dynamic import), which an isolate imports
 * the first time a request needs the language, so a cold start compiles none of the eleven and a busy
 * isolate only those it serves. Whoever reads `resources` first awaits `loadMessages` for the language
 * (the page render, `getFixedT`, the /locales route).
 */
import { DEFAULT_LANGUAGE, type Language } from "./constants";
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

const imported: Partial<Record<Language, Messages>> = {};

/**
 * Imports the languages' messages (and the default language's, i18next's fallback) unless this isolate
 * has them already.
 */
export async function loadMessages(...languages: Language[]): Promise<void> {
  for (const lng of new Set([...languages, DEFAULT_LANGUAGE])) imported[lng] ??= (await MESSAGES[lng]()).default;
}

export const resources = lazyMessages(
  Object.fromEntries(
    (Object.keys(MESSAGES) as Language[]).map((lng) => [
      lng,
      () => {
        const messages = imported[lng];
        // A reader that did not await loadMessages: a bug to see, never a page without its texts.
        if (!messages) throw new Error(`messages of ${lng} read before loadMessages("${lng}")`);
        return messages;
      },
    ]),
  ) as Record<Language, () => Messages>,
);
export { NAMESPACES };
