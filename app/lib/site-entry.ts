import { SITE_ENTRY_RESTRICTED_COUNTRIES } from "./constants";

export type LayoutName = "default" | "chat" | "lander" | "empty";

/** A route's layout, or a choice by its loader data (e.g. the ban page: bare only with a statement). */
export type LayoutChoice = LayoutName | ((data: unknown) => LayoutName);

/** The layout the deepest route asks for in `handle.layout` (docs/product/screens.md §2); "default" otherwise. */
export function layoutOf(matches: { handle?: unknown; data?: unknown }[]): LayoutName {
  for (const m of [...matches].reverse()) {
    const layout = (m.handle as { layout?: LayoutChoice } | undefined)?.layout;
    if (layout) return typeof layout === "function" ? layout(m.data) : layout;
  }
  return "default";
}

/**
 * docs/product/screens.md §2: the site-entry warning shows once; never to members, in the installed app, when the
 * brand disables it, or outside the brand's countries; the chat, lander and empty layouts only in NL and DE.
 * (The installed-app check happens in the browser, where display-mode is known.)
 */
export function shouldShowSiteEntry(o: {
  enabled: boolean;
  countries: string[];
  country: string;
  layout: LayoutName;
  loggedIn: boolean;
  skipped: boolean;
}): boolean {
  if (!o.enabled || o.loggedIn || o.skipped) return false;
  const country = o.country.toUpperCase();
  if (!o.countries.includes(country)) return false;
  return o.layout === "default" || SITE_ENTRY_RESTRICTED_COUNTRIES.includes(country);
}

export const SITE_ENTRY_COOKIE = "entry_ok";
