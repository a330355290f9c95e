/**
 * Sign-ups from disposable mail domains (decision 176): a flag for a moderator, never a refusal.
 * Apart from signals.server.ts so the list (~8,900 domains, 51 KiB gzip) is bundled once, in the
 * Remix build only, not again in the chat room's Durable Object. Imported on the first sign-up, not when
 * the Worker starts (decision 237): the list is 200 KiB of source that every start-up compiled.
 */
import type { Db } from "../../db/client";
import { nowS } from "~/lib/dates";
import { flagStatements, severityOfRule } from "./signals.server";

let disposable: Set<string> | null = null;
/** The address's domain, or one it is under, is on the maintained disposable-domain list. */
export async function isDisposableAddress(email: string): Promise<boolean> {
  if (!disposable) {
    const list = await import("disposable-email-domains-js");
    // A CommonJS package: the split server build hands it over as the module's `default`.
    disposable = ("default" in list ? (list.default as typeof list) : list).disposableEmailBlocklistSet();
  }
  const labels = (email.split("@").pop() ?? "").trim().toLowerCase().split(".");
  for (let i = 0; i < labels.length - 1; i++) if (disposable.has(labels.slice(i).join("."))) return true;
  return false;
}

/** A sign-up from a disposable address: the flag statements for the sign-up's own batch (none otherwise). */
export async function signupFlagStatements(
  db: Db,
  member: { id: string; brandId: number; email: string },
  now = nowS(),
) {
  if (!(await isDisposableAddress(member.email))) return [];
  return flagStatements(db, {
    rule: "disposable_email",
    detail: member.email.split("@").pop() ?? "",
    brandId: member.brandId,
    memberId: member.id,
    now,
    severity: severityOfRule("disposable_email"),
  });
}
