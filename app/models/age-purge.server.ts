/**
 * Age assurance's housekeeping (decision 185), apart from age-check.server.ts so the Cron Trigger
 * and the account purge pull in nothing of the check itself.
 */
import { inArray, lt } from "drizzle-orm";
import { getDb, schema } from "../../db/client";

const { ageProofs, ageRequests } = schema;

/** The cron's share: requests a day past their expiry and proofs past their validity go. */
export async function purgeAgeRequests(d1: D1Database, at: number): Promise<void> {
  const db = getDb(d1);
  await db.batch([
    db.delete(ageRequests).where(lt(ageRequests.expiresAt, at - 86_400)),
    db.delete(ageProofs).where(lt(ageProofs.validUntil, at)),
  ]);
}

/** Purged accounts: their proofs and requests go with them (a proof names its member without a foreign key). */
export async function purgeAgeSubjects(d1: D1Database, memberIds: string[]): Promise<void> {
  if (memberIds.length === 0) return;
  const db = getDb(d1);
  await db.batch([
    db.delete(ageProofs).where(inArray(ageProofs.subject, memberIds)),
    db.delete(ageRequests).where(inArray(ageRequests.subject, memberIds)),
  ]);
}
