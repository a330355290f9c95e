/** i18next settings shared by server and client. */
import { DEFAULT_LANGUAGE, LANGUAGES } from "./constants";

export const i18nConfig = {
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  defaultNS: "common",
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
};

/**
 * A brand's copy (decision 212): "entertainment" for a brand that runs team profiles, whose pages
 * and mails then read a key's `<key>_entertainment` variant where the locale files have one (a chat
 * and flirt entertainment service that promises no dates or meetings); null reads the keys as they are.
 */
export type Copy = "entertainment" | null;

/** Language names in their own language, for the dropdown. */
export const LANGUAGE_NAMES: Record<string, string> = {
  da: "Dansk",
  de: "Deutsch",
  en: "English",
  es: "Español",
  fi: "Suomi",
  fr: "Français",
  it: "Italiano",
  nb: "Norsk bokmål",
  nl: "Nederlands",
  pl: "Polski",
  sv: "Svenska",
};
