/**
 * Evidence and escalation (DSA Art. 18, decision 218). A photo removed as showing a minor or intimate
 * imagery without consent is copied, before its files are deleted, into the EVIDENCE bucket (its own
 * bucket and key space, never served by a member route), kept for EVIDENCE_RETENTION_DAYS for the
 * authorities, then deleted by the daily cron, the deletion audited. Only the admin sees it (each
 * view audited first) and records to whom a case was reported and when.
 */
import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";
import { getDb, schema } from "../../../db/client";
import { ESCALATION_RECIPIENTS } from "../../../db/schema";
import type { Env } from "~/lib/env";
import { randomId } from "~/lib/password";
import { photoKey } from "../photos.server";
import { auditStatement, type Actor } from "./audit.server";

export { ESCALATION_RECIPIENTS };
export type EscalationRecipient = (typeof ESCALATION_RECIPIENTS)[number];
export const EVIDENCE_RETENTION_DEFAULT_DAYS = 180;
const DAY = 86_400;
/** The cron's actor in the audit log: no operator deletes evidence by hand. */
const SYSTEM: Actor = { id: "system", role: "system" };

export const retentionDays = (env: Pick<Env, "EVIDENCE_RETENTION_DAYS">) => {
  const n = Number(env.EVIDENCE_RETENTION_DAYS);
  return Number.isInteger(n) && n >= 1 && n <= 3650 ? n : EVIDENCE_RETENTION_DEFAULT_DAYS;
};

/**
 * Copies the removed photo's full image into the evidence bucket and records it (with its audit row,
 * one batch). Called before the photo's files are deleted; false when there was nothing to copy.
 */
export async function preserveEvidence(
  env: Pick<Env, "DB" | "PHOTOS" | "EVIDENCE" | "EVIDENCE_RETENTION_DAYS">,
  actor: Actor,
  item: { caseId: string; decisionId: string; memberId: string; photoId: string; category: string },
  now: number,
): Promise<boolean> {
  const object = await env.PHOTOS.get(photoKey(item.photoId, "full"));
  if (!object) return false;
  const id = randomId();
  const bytes = new Uint8Array(await object.arrayBuffer());
  const contentType = object.httpMetadata?.contentType ?? "image/webp";
  // Its own key space: nothing in it is named like a member's photo.
  const objectKey = `evidence/${item.caseId}/${id}`;
  await env.EVIDENCE.put(objectKey, bytes, {
    httpMetadata: { contentType },
    customMetadata: { case: item.caseId, decision: item.decisionId },
  });
  const db = getDb(env.DB);
  const retainUntil = now + retentionDays(env) * DAY;
  await db.batch([
    db.insert(schema.evidence).values({
      id,
      ...item,
      objectKey,
      contentType,
      bytes: bytes.byteLength,
      createdAt: now,
      retainUntil,
    }),
    auditStatement(
      db,
      actor,
      {
        action: "evidence.preserve",
        targetType: "case",
        targetId: item.caseId,
        after: { evidence: id, photo: item.photoId, category: item.category, retainUntil },
      },
      now,
    ),
  ]);
  return true;
}

/** A case's evidence (kept or deleted) and escalations: the admin's view only. */
export async function caseEvidence(d1: D1Database, caseId: string) {
  const db = getDb(d1);
  const { evidence, escalations, operators } = schema;
  const [items, sent] = await db.batch([
    db.select().from(evidence).where(eq(evidence.caseId, caseId)).orderBy(asc(evidence.createdAt)),
    db
      .select({ e: escalations, by: operators.name })
      .from(escalations)
      .leftJoin(operators, eq(operators.id, escalations.operatorId))
      .where(eq(escalations.caseId, caseId))
      .orderBy(asc(escalations.id)),
  ]);
  return { items, escalations: sent.map((r) => ({ ...r.e, by: r.by ?? r.e.operatorId })) };
}

/** The evidence's bytes for the admin, the view audited before anything is read. Null when gone. */
export async function evidenceObject(env: Pick<Env, "DB" | "EVIDENCE">, actor: Actor, evidenceId: string) {
  const db = getDb(env.DB);
  const { evidence } = schema;
  const [row] = await db
    .select()
    .from(evidence)
    .where(and(eq(evidence.id, evidenceId), isNull(evidence.deletedAt)));
  if (!row) return null;
  await auditStatement(db, actor, {
    action: "evidence.view",
    targetType: "case",
    targetId: row.caseId,
    after: { evidence: row.id },
  }).run();
  return env.EVIDENCE.get(row.objectKey);
}

export type EscalationInput = {
  recipientType: EscalationRecipient;
  recipient: string;
  reference: string;
  reportedAt: number;
};

/** Records that a case was reported to the authorities (who, when, their reference), with its audit row. */
export async function escalate(d1: D1Database, actor: Actor, caseId: string, input: EscalationInput) {
  const db = getDb(d1);
  const { moderationCases: cases, escalations, auditLog } = schema;
  const [inserted] = await db.batch([
    db.insert(escalations).select(
      sql`SELECT NULL, ${caseId}, ${actor.id}, ${input.recipientType}, ${input.recipient}, ${input.reference},
        ${input.reportedAt}, unixepoch() WHERE EXISTS (SELECT 1 FROM ${cases} WHERE ${cases.id} = ${caseId})`,
    ),
    db.insert(auditLog).select(
      sql`SELECT NULL, unixepoch(), ${actor.id}, ${actor.role}, 'case.escalate', 'case', ${caseId},
        ${`${input.recipientType}: ${input.recipient}`.slice(0, 2000)}, NULL,
        ${JSON.stringify({ ...input })} WHERE changes() > 0`,
    ),
  ]);
  return (inserted.meta.changes ?? 0) > 0;
}

/**
 * The daily cron: evidence past its retention loses its object; the row stays, marked deleted, with
 * an audit row per item. Guarded on `deleted_at` so a second run deletes nothing twice.
 */
export async function purgeEvidence(env: Pick<Env, "DB" | "EVIDENCE">, now: number): Promise<number> {
  const db = getDb(env.DB);
  const { evidence } = schema;
  const due = await db
    .select({ id: evidence.id, objectKey: evidence.objectKey, caseId: evidence.caseId })
    .from(evidence)
    .where(and(isNull(evidence.deletedAt), lte(evidence.retainUntil, now)))
    .limit(200);
  let deleted = 0;
  for (const item of due) {
    await env.EVIDENCE.delete(item.objectKey);
    const [marked] = await db.batch([
      db
        .update(evidence)
        .set({ deletedAt: now })
        .where(and(eq(evidence.id, item.id), isNull(evidence.deletedAt))),
      db.insert(schema.auditLog).select(
        sql`SELECT NULL, ${now}, ${SYSTEM.id}, ${SYSTEM.role}, 'evidence.delete', 'case', ${item.caseId}, 'retention ended',
          NULL, ${JSON.stringify({ evidence: item.id })} WHERE changes() > 0`,
      ),
    ]);
    deleted += marked.meta.changes ?? 0;
  }
  return deleted;
}
