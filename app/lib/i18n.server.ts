/**
 * Language of a request: the locale cookie, else the first two letters of the brand's
 * domain_language, else English (SPEC section 9).
 */
import { createInstance, type TFunction } from "i18next";
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE_DAYS, LANGUAGES, type Language } from "./constants";
import { i18nConfig } from "./i18n";
import { NAMESPACES, resources } from "./resources.generated";

/** The locale cookie holds the bare language code (readable by the client too) for 365 days. */
export const localeCookie = {
  async parse(cookieHeader: string | null): Promise<string | null> {
    return /(?:^|;\s*)lng=([a-z]{2})(?:;|$)/.exec(cookieHeader ?? "")?.[1] ?? null;
  },
  async serialize(lng: Language): Promise<string> {
    return `lng=${lng}; Max-Age=${LANGUAGE_COOKIE_DAYS * 86_400}; Path=/; SameSite=Lax; Secure`;
  },
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

export async function resolveLanguage(cookieHeader: string | null, domainLanguage: string | null | undefined): Promise<Language> {
  const fromCookie = await localeCookie.parse(cookieHeader);
  if (isLanguage(fromCookie)) return fromCookie;
  const fromBrand = (domainLanguage ?? "").slice(0, 2).toLowerCase();
  if (isLanguage(fromBrand)) return fromBrand;
  return DEFAULT_LANGUAGE;
}

export { NAMESPACES, resources };

const instances = new Map<string, Promise<TFunction>>();

/** A translation function for a language and namespace; instances are cached per isolate. */
export function getFixedT(lng: Language, ns: string = "common"): Promise<TFunction> {
  const key = `${lng}:${ns}`;
  let t = instances.get(key);
  if (!t) {
    const instance = createInstance();
    t = instance
      .init({ ...i18nConfig, lng, ns: [...NAMESPACES], defaultNS: ns, resources })
      .then(() => instance.getFixedT(lng, ns));
    instances.set(key, t);
  }
  return t;
}
