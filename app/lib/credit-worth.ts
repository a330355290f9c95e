/**
 * What credits are worth in money (decision 179): from the packages on sale in the brand's
 * currency, the cheapest and the dearest price of one credit. A message of 2 credits is then "about
 * €0.40–€0.80": the figure a member weighs before writing, not only on /pricing.
 */
export type PricedPackage = { credits: number; price_cents: number };

/** Cents per credit, cheapest and dearest package; null when nothing is on sale. */
export function perCreditRange(packages: PricedPackage[]): { min: number; max: number } | null {
  const per = packages.filter((p) => p.credits > 0).map((p) => p.price_cents / p.credits);
  if (per.length === 0) return null;
  return { min: Math.min(...per), max: Math.max(...per) };
}

/** The money `credits` cost as text: one amount, or a range "a–b" when the packages differ. */
export function worthText(
  credits: number,
  range: { min: number; max: number } | null,
  format: (cents: number) => string,
): string | null {
  if (!range || credits <= 0) return null;
  const lo = format(Math.round(credits * range.min));
  const hi = format(Math.round(credits * range.max));
  return lo === hi ? lo : `${lo}–${hi}`;
}
