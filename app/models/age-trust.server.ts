/**
 * Whom the age check trusts (decisions 184, 185): the Commission's list of age verification attestation
 * providers (ETSI TS 119 612), fetched by the daily cron, its signature checked against the signers the
 * operator pins, and kept in age_trusted_roots with the time it was fetched. A verification only reads
 * that table, never the network; a list that fails any check leaves the last good one in place.
 */
import { getDb, schema } from "../../db/client";
import type { Env } from "~/lib/env";
import { MAX_TRUSTED_LIST_CHARS, readTrustedList, type TrustedListRefusal } from "~/lib/age/trusted-list.server";
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
  const list = await readTrustedList(xml, { signers, now });
  if (!list.ok) {
    logWarning("age.trusted_list_refused", { reason: list.reason });
    return list.reason;
  }
  const fetchedAt = Math.floor(now.getTime() / 1000);
  const rows = await Promise.all(
    list.roots.map(async (root) => ({ id: await hexSha256(root), der: b64(root), fetchedAt })),
  );
  const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
  const db = getDb(env.DB);
  const { ageTrustedRoots } = schema;
  await db.batch([db.delete(ageTrustedRoots), ...unique.map((row) => db.insert(ageTrustedRoots).values(row))]);
  return "stored";
}
