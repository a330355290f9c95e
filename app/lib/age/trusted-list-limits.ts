/**
 * The trusted list's limits, apart from its reader (trusted-list.server.ts) so the pages and the cron
 * that read the stored list do not load the XML signature code when the Worker starts (decision 234).
 */

/**
 * How long a stored list is still used after its NextUpdate when no newer one could be taken in (the
 * Commission late, its site down, a list refused): the operator is alerted from NextUpdate on; after
 * this, no provider is trusted until a current list is stored.
 */
export const TRUSTED_LIST_GRACE_S = 7 * 86_400;
/** A list far larger than any real one is refused unread. */
export const MAX_TRUSTED_LIST_CHARS = 4 * 1024 * 1024;
