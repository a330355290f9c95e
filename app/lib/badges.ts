import { CREDIT_BADGE_THRESHOLD, UNREAD_BADGE_CAP } from "./constants";

/** A count as a badge shows it: nothing for 0, capped at "99+" (docs/product/screens.md §2). */
export function countBadge(n: number): string | null {
  if (n <= 0) return null;
  return n > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(n);
}

/**
 * The credits badge: the balance, always (decision 215: a member sees what they have before they spend it), in a
 * quiet colour above 10 credits, the warning colour at 10 or fewer, the danger colour at 0 (docs/product/screens.md §2).
 */
export function creditBadge(credits: number): { text: string; tone: "muted" | "warning" | "danger" } {
  const tone = credits > CREDIT_BADGE_THRESHOLD ? "muted" : credits > 0 ? "warning" : "danger";
  return { text: String(Math.max(0, credits)), tone };
}
