/**
 * Paid features (docs/product/data.md §3 and docs/product/roles.md §6): what a free member can buy with credits besides messages,
 * and the try-out package (a one-time package). Prices come from pricesFor (credits.server.ts); every
 * charge goes through the ledger.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { applyCredits, cancelCredits, type WalletEnv } from "../wallet/wallet.server";
import { photoAccess, photoFacts } from "./photos.server";

export type UnlockResult = "unlocked" | "already" | "credits" | "not_found";

/**
 * A member pays `cost` credits (pricesFor(brand).photo) to see one private photo of another member,
 * once: only another visible member's private photo the viewer would otherwise get blurred. The
 * member's wallet charges it by the key photo:<viewer>:<photo> (decision 189), so racing or retried
 * clicks pay once, then the unlock row is stored; a retry after a lost answer finds the charge made
 * and stores the row. Premium members see it anyway.
 */
export async function unlockPhoto(
  env: WalletEnv & { DB: D1Database },
  viewer: { id: string; paidUser: boolean },
  photoId: string,
  cost: number,
): Promise<UnlockResult> {
  const d1 = env.DB;
  const facts = await photoFacts(d1, photoId, viewer);
  if (!facts || !facts.isPrivate || photoAccess(facts, viewer) === "none") return "not_found";
  if (photoAccess(facts, viewer) === "full") return "already";
  const key = `photo:${viewer.id}:${photoId}`;
  const charged = await applyCredits(env, viewer.id, { key, delta: -cost, reason: "photo", refId: photoId });
  if (!charged.ok) return "credits";
  try {
    await getDb(d1).insert(schema.photoUnlocks).values({ userId: viewer.id, photoId }).onConflictDoNothing();
  } catch (e) {
    // Not stored (the photo went meanwhile): not charged either.
    await cancelCredits(env, viewer.id, key, "photo");
    throw e;
  }
  return charged.applied ? "unlocked" : "already";
}

// ---------------------------------------------------------------------------------------------
// The try-out package

// A one-time package (the try-out) counts as bought while a payment for it is open, pending, paid or refunded.
const ONE_TIME_TAKEN_STATUSES = ["open", "pending", "paid", "refunded"] as const;
const ONE_TIME_TAKEN = (pkg: string, user: string) =>
  `EXISTS (SELECT 1 FROM payments WHERE user_id = ${user} AND package_id = ${pkg} AND status IN (${ONE_TIME_TAKEN_STATUSES.map((s) => `'${s}'`).join(", ")}))`;

/**
 * The condition a payment INSERT adds for the package: an ordinary package, or a one-time package
 * (the try-out) this member has no open, pending, paid or refunded payment for. Racing checkouts: one payment.
 */
export function oneTimeGuardSql(packageParam: string, userParam: string): string {
  return `(COALESCE((SELECT one_time FROM packages WHERE id = ${packageParam}), 0) = 0 OR NOT ${ONE_TIME_TAKEN(packageParam, userParam)})`;
}

/** Whether the member already has (or is paying for) a one-time package; false for an ordinary one. */
export async function oneTimeUsed(d1: D1Database, userId: string, packageId: string): Promise<boolean> {
  const { packages, payments } = schema;
  const db = getDb(d1);
  const taken = db
    .select({ one: sql`1` })
    .from(payments)
    .where(
      and(
        eq(payments.userId, userId),
        eq(payments.packageId, packageId),
        inArray(payments.status, [...ONE_TIME_TAKEN_STATUSES]),
      ),
    );
  const row = await db
    .select({ used: sql<number>`${packages.oneTime} AND EXISTS ${taken}` })
    .from(packages)
    .where(eq(packages.id, packageId))
    .get();
  return !!row?.used;
}
