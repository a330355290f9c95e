/**
 * The name of a team-run (fictional) profile's mark (decision 179): the brand's own word
 * (its `fictional_singular` setting) on pages and mails in the brand's language, else the translated
 * `common:fictional.label`. Pure: the mark on cards and the notification mails share it.
 */
export function fictionalLabel(brand: { singular: string; lang: string }, lng: string, translated: string): string {
  const own = brand.singular && lng === brand.lang ? brand.singular : "";
  return own ? own.charAt(0).toUpperCase() + own.slice(1) : translated;
}

/** The brand's icon for the mark, or the default mask. */
export const fictionalIcon = (icon: string | null | undefined) => icon || "🎭";
