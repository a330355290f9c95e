/** Accounts: deletion, reactivation within its days, and the retention offer. */
import type { DELETE_REASONS } from "../account-forms";
import {
  type AccountEnv,
  type AccountHolder,
  sendAccountMail,
  normalizeEmail,
  DAY,
  takeDailyQuota,
  RESET_MAILS_PER_DAY,
} from "./common.server";
import type { BrandWithCompany } from "../brand.server";
import type { BatchItem } from "drizzle-orm/batch";
import { getDb, schema } from "../../../db/client";
import { newToken, tokenHash } from "../tokens.server";
import { nowS } from "~/lib/dates";
import { eq, and, isNotNull, isNull, gt, inArray, like } from "drizzle-orm";
import { revokeSessionsStatement, closeRevokedSockets } from "../session.server";
import { REACTIVATION_DAYS } from "~/lib/constants";
import { randomId } from "~/lib/password";

// ---------------------------------------------------------------------------------------------
// Deletion, reactivation, purge

export type DeleteReason = (typeof DELETE_REASONS)[number];

/**
 * Deletes an account: hidden at once (deleted_at), every session ended, and a reactivation link
 * valid for REACTIVATION_DAYS mailed. The data stays until the purge, so reactivation restores all.
 */
export async function deleteAccount(
  env: AccountEnv,
  brand: BrandWithCompany,
  member: AccountHolder,
  reason: DeleteReason,
  remarks: string,
  origin: string,
  extra: BatchItem<"sqlite">[] = [],
) {
  const db = getDb(env.DB);
  const { users, tokens } = schema;
  const { token, statement } = await newToken(db, member.id, "reactivate");
  await db.batch([
    db
      .update(users)
      .set({ deletedAt: nowS(), deleteReason: reason, deleteRemarks: remarks.slice(0, 2000) })
      .where(eq(users.id, member.id)),
    revokeSessionsStatement(db, member.id),
    db.delete(tokens).where(and(eq(tokens.userId, member.id), eq(tokens.kind, "reactivate"))),
    statement,
    ...extra,
  ]);
  await closeRevokedSockets(env, member.id);
  await sendAccountMail(env, brand, member, "reactivate", token, origin);
}

/** From the sign-up form's pending-deletion notice: a fresh reactivation link, within the quota. */
export async function requestReactivation(env: AccountEnv, brand: BrandWithCompany, email: string, origin: string) {
  const { users, profiles } = schema;
  const db = getDb(env.DB);
  const [user] = await db
    .select({
      id: users.id,
      email: users.email,
      language: users.language,
      deletedAt: users.deletedAt,
      name: profiles.name,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.brandId, brand.id), eq(users.email, normalizeEmail(email)), isNotNull(users.deletedAt)));
  if (!user || (user.deletedAt ?? 0) < nowS() - REACTIVATION_DAYS * DAY) return "not_found" as const;
  if (!(await takeDailyQuota(env.DB, `reactivate:${user.id}`, RESET_MAILS_PER_DAY))) return "too_many" as const;
  const { token, statement } = await newToken(db, user.id, "reactivate");
  await statement;
  await sendAccountMail(env, brand, user, "reactivate", token, origin);
  return "sent" as const;
}

/** Undoes a deletion from its link, if the deletion is less than REACTIVATION_DAYS old. */
export async function reactivate(d1: D1Database, token: string, now = nowS()): Promise<string | null> {
  const db = getDb(d1);
  const { users, tokens } = schema;
  const hash = await tokenHash(token);
  const usable = and(
    eq(tokens.idHash, hash),
    eq(tokens.kind, "reactivate"),
    isNull(tokens.usedAt),
    gt(tokens.expiresAt, now),
  );
  const [restored] = await db.batch([
    db
      .update(users)
      .set({ deletedAt: null, deleteReason: null, deleteRemarks: null })
      .where(
        and(
          inArray(users.id, db.select({ userId: tokens.userId }).from(tokens).where(usable)),
          gt(users.deletedAt, now - REACTIVATION_DAYS * DAY),
        ),
      )
      .returning({ id: users.id }),
    db.update(tokens).set({ usedAt: now }).where(usable),
  ]);
  return restored[0]?.id ?? null;
}

// ---------------------------------------------------------------------------------------------
// Retention offer: a personal discount code worth the company's delete_discount

export async function retentionDiscountCode(d1: D1Database, brand: BrandWithCompany, userId: string) {
  const percentage = brand.company.deleteDiscount;
  if (!percentage) return null;
  const db = getDb(d1);
  const { discountCodes: dc } = schema;
  const [existing] = await db
    .select({ code: dc.code, valuePercentage: dc.valuePercentage, expires: dc.expires })
    .from(dc)
    .where(and(eq(dc.userId, userId), like(dc.code, "STAY-%"), eq(dc.status, "active")))
    .limit(1);
  if (existing?.expires && existing.expires > nowS())
    return { code: existing.code, percentage: Number(existing.valuePercentage) };
  const code = `STAY-${randomId(6)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "X")}`;
  await db
    .insert(dc)
    .values({ code, valuePercentage: String(percentage), userId, expires: nowS() + 30 * DAY, oncePerUser: true });
  return { code, percentage };
}
