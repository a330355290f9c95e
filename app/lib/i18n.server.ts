/**
 * Server-side translation through remix-i18next (decision 140): language detection and `getFixedT`
 * for loaders, actions and mails. The language of a request is the locale cookie, else the first two
 * letters of the brand's domain_language, else English (docs/product/limits.md §9). The browser keeps its small
 * reader of the same JSON files (decision 002).
 */
import type { Cookie } from "@remix-run/cloudflare";
import type { TFunction } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import { cookieFromHeader } from "./cookies.server";
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE_DAYS, LANGUAGES, type Language } from "./constants";
import { i18nConfig, type Copy } from "./i18n";
import { loadMessages, NAMESPACES, resources } from "./messages";

/**
 * The locale cookie holds the bare language code for 365 days, readable by the client too, so it
 * is not one of Remix's (base64 JSON) cookies; remix-i18next only needs its `parse`.
 */
export const localeCookie = {
  name: "lng",
  isSigned: false,
  expires: undefined,
  async parse(cookieHeader: string | null): Promise<string | null> {
    const lng = cookieFromHeader(cookieHeader, "lng");
    return isLanguage(lng) ? lng : null;
  },
  async serialize(lng: Language): Promise<string> {
    return `lng=${lng}; Max-Age=${LANGUAGE_COOKIE_DAYS * 86_400}; Path=/; SameSite=Lax; Secure`;
  },
} satisfies Cookie;

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** The brand's language: the first two letters of its domain_language when supported, else English. */
function brandLanguage(domainLanguage: string | null | undefined): Language {
  const lng = (domainLanguage ?? "").slice(0, 2).toLowerCase();
  return isLanguage(lng) ? lng : DEFAULT_LANGUAGE;
}

// One RemixI18Next per fallback language (at most 11 per isolate): the brand's language is the
// fallback of detection, which looks at the locale cookie only (no query parameter, no Accept-Language).
const remixI18n = new Map<Language, RemixI18Next>();

function remixI18nFor(fallbackLanguage: Language): RemixI18Next {
  let instance = remixI18n.get(fallbackLanguage);
  if (!instance) {
    instance = new RemixI18Next({
      detection: { supportedLanguages: [...LANGUAGES], fallbackLanguage, cookie: localeCookie, order: ["cookie"] },
      i18next: { ...i18nConfig, ns: [...NAMESPACES], resources },
    });
    remixI18n.set(fallbackLanguage, instance);
  }
  return instance;
}

/** The language of a request for a brand (its domain_language). */
export async function resolveLanguage(request: Request, domainLanguage: string | null | undefined): Promise<Language> {
  const lng = await remixI18nFor(brandLanguage(domainLanguage)).getLocale(request);
  return isLanguage(lng) ? lng : DEFAULT_LANGUAGE;
}

export { loadMessages, NAMESPACES, resources };

// RemixI18Next.getFixedT makes a new i18next instance per call: keep one per language and namespace.
const fixedT = new Map<string, Promise<TFunction>>();

/**
 * A translation function for a language and namespace (loaders, actions, mails). With a brand's `copy`
 * (decision 212) each key reads its `<key>_<copy>` variant where there is one: i18next's context.
 */
export function getFixedT(lng: Language, ns: string = "common", copy: Copy = null): Promise<TFunction> {
  const key = `${lng}:${ns}:${copy ?? ""}`;
  let t = fixedT.get(key);
  if (!t) {
    const plain = loadMessages(lng).then(() => remixI18nFor(lng).getFixedT(lng, ns) as Promise<TFunction>);
    t = copy
      ? plain.then((base) => ((k: string, o?: object) => base(k, { context: copy, ...o })) as unknown as TFunction)
      : plain;
    fixedT.set(key, t);
  }
  return t;
}
