/**
 * The name of a team-run (fictional) profile's mark (decisions 179 and 202): one plain term in every
 * language, the translated `common:fictional.label` ("Team-run profile"). A brand's own word for such
 * profiles (its `fictional_singular` setting) no longer renames the mark: "entertainment profile" said
 * less than the plain term. Pure: the mark on cards and the notification mails share it.
 */
export function fictionalLabel(_brand: { singular: string; lang: string }, _lng: string, translated: string): string {
  return translated;
}

/** The brand's icon for the mark, or the default mask. */
export const fictionalIcon = (icon: string | null | undefined) => icon || "🎭";
