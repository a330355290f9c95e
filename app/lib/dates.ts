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
  return new Date(Date.UTC(now.getUTCFullYear() - minAge, now.getUTCMonth(), now.getUTCDate())).toISOString().slice(0, 10);
}
