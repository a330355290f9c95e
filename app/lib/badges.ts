import { CREDIT_BADGE_THRESHOLD, UNREAD_BADGE_CAP } from "./constants";

/** A count as a badge shows it: nothing for 0, capped at "99+" (docs/product.md §2). */
export function countBadge(n: number): string | null {
  if (n <= 0) return null;
  return n > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(n);
}

/** The credits badge: shown at 10 or fewer credits, warning colour above 0, danger at 0. */
export function creditBadge(credits: number): { text: string; tone: "warning" | "danger" } | null {
  if (credits > CREDIT_BADGE_THRESHOLD) return null;
  return { text: String(credits), tone: credits > 0 ? "warning" : "danger" };
}
