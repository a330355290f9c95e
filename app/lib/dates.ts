/** The one date rule (decision 082): a YYYY-MM-DD string naming a day that exists (no 2000-02-31). */
export function isRealDate(iso: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Whole years between a YYYY-MM-DD date of birth and `today` (UTC), as profiles show ages. */
export function ageOn(dateOfBirth: string, today = new Date()): number {
  const [y, m, d] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const beforeBirthday = today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  return today.getUTCFullYear() - y - (beforeBirthday ? 1 : 0);
}

/** Now in whole seconds, as D1 stores times. */
export const nowS = () => Math.floor(Date.now() / 1000);

/** The latest date of birth that is `minAge` today (UTC), as YYYY-MM-DD: every sign-up form's date limit. */
export function latestBirthDate(minAge: number, now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear() - minAge, now.getUTCMonth(), now.getUTCDate()))
    .toISOString()
    .slice(0, 10);
}
