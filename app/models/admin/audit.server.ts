/**
 * The audit log (decision 167): one append-only row per operator action, written in the same D1
 * batch as the change it records (so there is never a change without its row, nor a row without
 * its change). The table refuses UPDATE and DELETE (migration 0016).
 */
import { and, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { getDb, schema, type Db } from "../../../db/client";
import { nowS } from "~/lib/dates";
import { normaliseText, paragraph } from "~/lib/text";
import { z } from "zod";

export type Actor = { id: string; role: string };
export type AuditEntry = {
  action: string;
  targetType?: string;
  targetId?: string;
  reason?: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
};

const row = (actor: Actor, e: AuditEntry, at: number) => ({
  at,
  operatorId: actor.id,
  role: actor.role,
  action: e.action,
  targetType: e.targetType ?? "",
  targetId: e.targetId ?? "",
  // What an operator types is stored as members' texts are: no invisible or direction-reversing characters.
  reason: normaliseText(e.reason ?? "", { multiline: true }),
  before: e.before ?? null,
  after: e.after ?? null,
});

/** The audit row as a query for a drizzle batch beside the change. */
export function auditStatement(db: Db, actor: Actor, e: AuditEntry, at = nowS()) {
  return db.insert(schema.auditLog).values(row(actor, e, at));
}

/**
 * The audit row for a guarded chain: written only when the statement just before it in the batch
 * changed a row (`changes() > 0`), so a change refused by its guard leaves no row either. An
 * INSERT … SELECT of every audit_log column in table order (a null id takes the next rowid).
 */
export function auditAfterChange(db: Db, actor: Actor, e: AuditEntry, at = nowS()) {
  const r = row(actor, e, at);
  return db.insert(schema.auditLog)
    .select(sql`SELECT NULL, ${r.at}, ${r.operatorId}, ${r.role}, ${r.action}, ${r.targetType}, ${r.targetId},
    ${r.reason}, ${r.before ? JSON.stringify(r.before) : null}, ${r.after ? JSON.stringify(r.after) : null} WHERE changes() > 0`);
}

/** A reason an operator gives for the audit log: 3 to 500 visible characters once normalised. */
export const auditReason = paragraph(z.string().min(3).max(500));

export type AuditFilter = {
  operatorEmail?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: number;
  to?: number;
};
export const AUDIT_PAGE = 50;

/**
 * Newest first, filtered; `before` pages on by id. A row whose change reaches the member's wallet
 * through the outbox (a credits grant or take, `after.key`, decision 194) comes with that outbox row's
 * state: the wallet may still have to apply it, or have refused a take spent meanwhile.
 */
export async function listAudit(d1: D1Database, f: AuditFilter, beforeId?: number) {
  const { auditLog, operators, walletOutbox } = schema;
  const where: SQL[] = [];
  if (f.operatorEmail) where.push(eq(operators.email, f.operatorEmail.trim().toLowerCase()));
  // A prefix by substr, not LIKE: D1 refuses LIKE patterns over 50 bytes (the filter answered 500).
  if (f.action) where.push(sql`substr(${auditLog.action}, 1, length(${f.action})) = ${f.action}`);
  if (f.targetType) where.push(eq(auditLog.targetType, f.targetType));
  if (f.targetId) where.push(eq(auditLog.targetId, f.targetId));
  if (f.from) where.push(gte(auditLog.at, f.from));
  if (f.to) where.push(lt(auditLog.at, f.to));
  if (beforeId) where.push(lt(auditLog.id, beforeId));
  return (
    getDb(d1)
      .select({
        entry: auditLog,
        operatorEmail: operators.email,
        // The id first: drizzle takes a joined object whose first column is null for no row.
        wallet: { id: walletOutbox.id, appliedAt: walletOutbox.appliedAt, refused: walletOutbox.refused },
      })
      .from(auditLog)
      .leftJoin(operators, eq(operators.id, auditLog.operatorId))
      // By the member (wallet_outbox_user), then the key the audit row names.
      .leftJoin(
        walletOutbox,
        and(
          eq(walletOutbox.userId, auditLog.targetId),
          eq(walletOutbox.key, sql`json_extract(${auditLog.after}, '$.key')`),
        ),
      )
      .where(and(...where))
      .orderBy(desc(auditLog.id))
      .limit(AUDIT_PAGE)
  );
}
