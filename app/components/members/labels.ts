/** Country names in the member's language (Intl works in workerd and browsers alike). */
export function countryName(code: string, lng: string): string {
  try {
    return new Intl.DisplayNames([lng], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}
