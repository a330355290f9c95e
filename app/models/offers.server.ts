/**
 * Paid features (SPEC sections 3 and 6): what a free member can buy with credits besides messages.
 * Prices come from pricesFor (credits.server.ts); every charge goes through the ledger.
 */
import { debitStatement, ledgerStatement } from "./credits.server";
import { photoAccess, photoFacts } from "./photos.server";

export type UnlockResult = "unlocked" | "already" | "credits" | "not_found";

/**
 * A member pays `cost` credits (pricesFor(brand).photo) to see one private photo of another member,
 * once: the debit is guarded on "not unlocked yet" and on the photo being another visible member's
 * private photo the viewer would otherwise get blurred; the unlock row and the ledger row follow it
 * in the same batch (each only if the statement before changed a row). Premium members see it anyway.
 */
export async function unlockPhoto(d1: D1Database, viewer: { id: string; paidUser: boolean }, photoId: string, cost: number): Promise<UnlockResult> {
  const facts = await photoFacts(d1, photoId, viewer);
  if (!facts || !facts.isPrivate || photoAccess(facts, viewer) === "none") return "not_found";
  if (photoAccess(facts, viewer) === "full") return "already";
  const [debit] = await d1.batch([
    debitStatement(d1, viewer.id, cost, {
      sql: "NOT EXISTS (SELECT 1 FROM photo_unlocks WHERE user_id = ?1 AND photo_id = ?3) AND EXISTS (SELECT 1 FROM photos WHERE id = ?3 AND is_private = 1 AND user_id <> ?1)",
      params: [photoId],
    }),
    d1.prepare("INSERT INTO photo_unlocks (user_id, photo_id) SELECT ?1, ?2 WHERE changes() = 1").bind(viewer.id, photoId),
    ledgerStatement(d1, { userId: viewer.id, delta: -cost, reason: "photo", refId: photoId }),
  ]);
  if (debit!.meta.changes === 1) return "unlocked";
  const again = await photoFacts(d1, photoId, viewer);
  return again?.unlocked ? "already" : "credits";
}
