/**
 * The one rule of a "near you" list on the public pages (landing strip, map lander): the members in
 * the visitor's country when any are listed, else everyone; `near` says which it is, and only a near
 * list may be headed "near you" (else the "online now" wording). The list and its heading are decided
 * together, from the members actually shown (a list once said "near you in United States" over Utrecht).
 */
export function nearList<T>(members: T[], isNear: (m: T) => boolean): { near: boolean; list: T[] } {
  const near = members.filter(isNear);
  return near.length ? { near: true, list: near } : { near: false, list: members };
}
