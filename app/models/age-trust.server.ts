/**
 * Whom the age check trusts (decisions 184, 185, 198): the Commission's list of age verification
 * attestation providers (ETSI TS 119 612), fetched by the daily cron, its scheme and signature checked
 * against the signers the operator pins, and kept in age_trusted_roots with the time it was fetched and
 * the list's NextUpdate. A verification only reads that table, never the network; a list that fails any
 * check leaves the last good one in place, but only until its NextUpdate plus a grace period: a list
 * that has stopped refreshing is not trusted for ever, and the operator is alerted from NextUpdate on.
 */
import { gt, isNull, or, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import type { Env } from "~/lib/env";
import type { TrustedListRefusal } from "~/lib/age/trusted-list.server";
import { MAX_TRUSTED_LIST_CHARS, TRUSTED_LIST_GRACE_S } from "~/lib/age/trusted-list-limits";
import { logError, logWarning } from "~/lib/log.server";

export type TrustEnv = Pick<Env, "DB" | "AGE_TRUSTED_LIST_URL" | "AGE_TRUSTED_LIST_SIGNERS">;
export type RefreshOutcome = "stored" | "not_configured" | "unreachable" | TrustedListRefusal;

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const der = (text: string) => Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));

async function hexSha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The pinned signers: base64 DER certificates, comma-separated (what the Commission publishes for the list). */
function signersOf(value: string): Uint8Array[] | null {
  try {
    const list = value
      .split(",")
      .filter((s) => s.trim() !== "")
      .map(der);
    return list.length > 0 ? list : null;
  } catch {
    return null;
  }
}

/** Fetches, checks and stores the list; the table is replaced in one batch only when every check passed. */
export async function refreshTrustedList(
  env: TrustEnv,
  now: Date,
  fetcher: (url: string, init: RequestInit) => Promise<Response> = fetch,
): Promise<RefreshOutcome> {
  const signers = signersOf(env.AGE_TRUSTED_LIST_SIGNERS ?? "");
  if (!env.AGE_TRUSTED_LIST_URL || !signers) return "not_configured";
  let xml: string;
  try {
    const response = await fetcher(env.AGE_TRUSTED_LIST_URL, { signal: AbortSignal.timeout(30_000) });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    if (Number(response.headers.get("content-length") ?? 0) > MAX_TRUSTED_LIST_CHARS) throw new Error("too large");
    xml = await response.text();
  } catch (error) {
    logError("age.trusted_list_unreachable", error);
    return "unreachable";
  }
  // The XML signature and X.509 code: loaded by the daily refresh, not when the Worker starts (decision 234).
  const { readTrustedList } = await import("~/lib/age/trusted-list.server");
  const list = await readTrustedList(xml, { signers, now });
  if (!list.ok) {
    logWarning("age.trusted_list_refused", { reason: list.reason });
    return list.reason;
  }
  const fetchedAt = Math.floor(now.getTime() / 1000);
  const nextUpdate = list.nextUpdate ? Math.floor(list.nextUpdate.getTime() / 1000) : null;
  const rows = await Promise.all(
    list.roots.map(async (root) => ({ id: await hexSha256(root), der: b64(root), fetchedAt, nextUpdate })),
  );
  const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
  const db = getDb(env.DB);
  const { ageTrustedRoots } = schema;
  await db.batch([db.delete(ageTrustedRoots), ...unique.map((row) => db.insert(ageTrustedRoots).values(row))]);
  return "stored";
}

/** The stored list's state at `now` (seconds): current, overdue (past NextUpdate, in its grace) or expired (no longer trusted). */
export type TrustedListState =
  | { state: "none" }
  | {
      state: "current" | "overdue" | "expired";
      nextUpdate: number | null;
      /** When it stops being trusted: NextUpdate plus the grace period. */
      trustedUntil: number | null;
      fetchedAt: number;
    };

export async function trustedListState(d1: D1Database, now: number): Promise<TrustedListState> {
  const { ageTrustedRoots } = schema;
  const row = await getDb(d1)
    .select({
      nextUpdate: sql<number | null>`MIN(${ageTrustedRoots.nextUpdate})`,
      fetchedAt: ageTrustedRoots.fetchedAt,
    })
    .from(ageTrustedRoots)
    .get();
  if (!row?.fetchedAt) return { state: "none" };
  const { nextUpdate, fetchedAt } = row;
  const state =
    nextUpdate === null || nextUpdate > now
      ? "current"
      : nextUpdate + TRUSTED_LIST_GRACE_S > now
        ? "overdue"
        : "expired";
  return { state, nextUpdate, trustedUntil: nextUpdate === null ? null : nextUpdate + TRUSTED_LIST_GRACE_S, fetchedAt };
}

/**
 * The daily refresh, then the operator's alert: from the stored list's NextUpdate on, every day until a
 * current list is stored, one error line in the logs (the same the console's dashboard shows).
 */
export async function refreshAndAlert(env: TrustEnv, now: Date, fetcher?: Parameters<typeof refreshTrustedList>[2]) {
  const outcome = await refreshTrustedList(env, now, fetcher);
  const at = Math.floor(now.getTime() / 1000);
  const stored = await trustedListState(env.DB, at);
  if (stored.state === "overdue" || stored.state === "expired") {
    logError("age.trusted_list_overdue", new Error(`trusted list past its NextUpdate (${outcome})`), {
      nextUpdate: new Date(stored.nextUpdate! * 1000).toISOString(),
      trustedUntil: new Date((stored.nextUpdate! + TRUSTED_LIST_GRACE_S) * 1000).toISOString(),
      expired: stored.state === "expired",
      outcome,
    });
  }
  return outcome;
}

/** The providers' certificates a verification may use at `now` (seconds): none of a list past its grace. */
export async function usableTrustedRoots(d1: D1Database, now: number): Promise<Uint8Array[]> {
  const { ageTrustedRoots } = schema;
  const rows = await getDb(d1)
    .select({ der: ageTrustedRoots.der })
    .from(ageTrustedRoots)
    .where(or(isNull(ageTrustedRoots.nextUpdate), gt(ageTrustedRoots.nextUpdate, now - TRUSTED_LIST_GRACE_S)));
  return rows.map((r) => der(r.der));
}
