/**
 * Statements of reasons sent to the EU DSA Transparency Database as they are made (DSA Art. 24(5),
 * decision 218). A decision's batch writes its `dsa_submissions` row ("queued"); the decision then
 * puts a message on DSA_QUEUE, whose consumer posts the statement to the database's
 * POST /api/v1/statement (Bearer token, JSON) and records the answer: 201 "sent" with its uuid;
 * 422 "refused" with the database's errors (a puid it already has counts as sent); anything else
 * (unreachable, 401, 429, 5xx) stays "queued" with the error and is retried with a growing delay;
 * after the last try (DSA_MAX_DELIVERIES) it is "failed" with that error, for a person to send again.
 * Without DSA_DATABASE_URL (development, tests) the local stand-in answers, validating as the
 * database does; a deployed Worker without it keeps its statements queued.
 */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { getDb, schema, type Db } from "../../db/client";
import { nowS } from "~/lib/dates";
import { isDeployed, type Env } from "~/lib/env";
import { statementOfDecision } from "./admin/transparency.server";
import { RULE_LABELS } from "./moderation-rules";
import { DSA_MAX_DELIVERIES, dsaErrors, retryDelay, standInStore, type DsaSubmission } from "./dsa-database";
import { auditAfterChange, type Actor } from "./admin/audit.server";
import { logError } from "~/lib/log.server";

export type { DsaSubmission };
export const DSA_STATEMENT_PATH = "/api/v1/statement";
const RESPONSE_MAX = 2000;

/** The submission row of a decision, written in the decision's batch (only if `decided`). */
export function queueSubmissionStatement(db: Db, decisionId: string, now: number, decided: SQL) {
  const { dsaSubmissions } = schema;
  return db
    .insert(dsaSubmissions)
    .select(sql`SELECT ${decisionId}, 'queued', 0, NULL, NULL, NULL, ${now}, ${now} WHERE ${decided}`);
}

/** The database's answer, as the real one or the stand-in gives it. */
type Answer = { status: number; body: Record<string, unknown>; error?: undefined } | { status: 0; error: string };

async function post(
  env: Pick<Env, "DSA_DATABASE_URL" | "DSA_DATABASE_TOKEN">,
  statement: Record<string, unknown>,
): Promise<Answer> {
  if (!env.DSA_DATABASE_URL) return standInStore(statement);
  try {
    const res = await fetch(`${env.DSA_DATABASE_URL.replace(/\/$/, "")}${DSA_STATEMENT_PATH}`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${env.DSA_DATABASE_TOKEN ?? ""}`,
        Accept: "application/json",
        "Content-Type": "application/json",
      },
      body: JSON.stringify(statement),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = { text: text.slice(0, RESPONSE_MAX) };
    }
    return { status: res.status, body };
  } catch (e) {
    return { status: 0, error: e instanceof Error ? e.message : String(e) };
  }
}

/** "field: message; …" of a 422 answer. */
function errorsOf(body: Record<string, unknown>): string {
  const errors = body.errors as Record<string, string[]> | undefined;
  if (!errors || typeof errors !== "object") return String(body.message ?? "refused");
  return Object.entries(errors)
    .map(([field, list]) => `${field}: ${Array.isArray(list) ? list.join(" ") : String(list)}`)
    .join("; ");
}

export type SubmitOutcome = "sent" | "refused" | "retry" | "done";

/**
 * One try at a decision's statement. Guarded on the row still being queued (a second delivery of the
 * same message changes nothing once it was sent or refused).
 */
export async function submitStatement(
  env: Pick<Env, "DB" | "ENVIRONMENT" | "DSA_DATABASE_URL" | "DSA_DATABASE_TOKEN">,
  decisionId: string,
  now = nowS(),
): Promise<SubmitOutcome> {
  const db = getDb(env.DB);
  const { dsaSubmissions: subs } = schema;
  const [row] = await db.select().from(subs).where(eq(subs.decisionId, decisionId));
  if (!row || row.status !== "queued") return "done";
  const record = (set: Partial<typeof subs.$inferInsert>) =>
    db
      .update(subs)
      .set({ ...set, attempts: sql`${subs.attempts} + 1`, updatedAt: now })
      .where(and(eq(subs.decisionId, decisionId), eq(subs.status, "queued")));
  const statement = await statementOfDecision(env.DB, decisionId, (rule) => RULE_LABELS[rule] ?? rule);
  if (!statement) {
    await record({ status: "refused", error: "No statement: the decision restricted nothing." });
    return "refused";
  }
  // What the database would refuse is never sent: it is shown in the case as refused, to be fixed.
  const own = dsaErrors(statement);
  if (own.length > 0) {
    await record({ status: "refused", error: own.join("; ") });
    return "refused";
  }
  if (isDeployed(env) && !env.DSA_DATABASE_URL) {
    await record({ error: "DSA_DATABASE_URL is not set: waiting." });
    return "retry";
  }
  const answer = await post(env, statement);
  if (answer.error !== undefined) {
    await record({ error: `unreachable: ${answer.error}` });
    return "retry";
  }
  const response = `${answer.status} ${JSON.stringify(answer.body).slice(0, RESPONSE_MAX)}`;
  if (answer.status === 201) {
    await record({ status: "sent", error: null, uuid: String(answer.body.uuid ?? ""), response });
    return "sent";
  }
  if (answer.status === 422) {
    const errors = answer.body.errors as Record<string, unknown> | undefined;
    // The database has this puid already (an earlier try whose answer was lost): it is there.
    if (errors && Object.keys(errors).length === 1 && "puid" in errors && answer.body.existing) {
      const existing = answer.body.existing as Record<string, unknown>;
      await record({ status: "sent", error: null, uuid: String(existing.uuid ?? ""), response });
      return "sent";
    }
    await record({ status: "refused", error: errorsOf(answer.body), response });
    return "refused";
  }
  await record({ error: `HTTP ${answer.status}`, response });
  return "retry";
}

/**
 * The queue's consumer: each message one try; what could not reach the database waits longer each
 * time. The last delivery the queue makes (DSA_MAX_DELIVERIES) marks the statement failed instead of
 * asking for a retry the queue would drop: it would otherwise show "queued" for ever (decision 225).
 */
export async function handleDsaBatch(batch: MessageBatch<DsaSubmission>, env: Env, now = nowS()) {
  for (const message of batch.messages) {
    const last = message.attempts >= DSA_MAX_DELIVERIES;
    try {
      const outcome = await submitStatement(env, message.body.decisionId, now);
      if (outcome === "retry" && last) await failStatement(env.DB, message.body.decisionId, null, now);
      if (outcome === "retry" && !last) message.retry({ delaySeconds: retryDelay(message.attempts) });
      else message.ack();
    } catch (e) {
      logError("dsa.submission_failed", e);
      if (!last) message.retry({ delaySeconds: retryDelay(message.attempts) });
      else {
        await failStatement(env.DB, message.body.decisionId, e instanceof Error ? e.message : String(e), now);
        message.ack();
      }
    }
  }
}

/** A queued statement whose tries ran out: failed, keeping its last error (or the given one). */
async function failStatement(d1: D1Database, decisionId: string, error: string | null, now: number) {
  const { dsaSubmissions: subs } = schema;
  await getDb(d1)
    .update(subs)
    .set({ status: "failed", updatedAt: now, ...(error ? { error: `error: ${error}`.slice(0, RESPONSE_MAX) } : {}) })
    .where(and(eq(subs.decisionId, decisionId), eq(subs.status, "queued")));
}

/** How many statements failed (the dashboard's count) and the cases of the newest, to send them again. */
export async function failedStatements(d1: D1Database) {
  const db = getDb(d1);
  const { dsaSubmissions: subs, decisions } = schema;
  const [[total], recent] = await db.batch([
    db
      .select({ n: sql<number>`count(*)` })
      .from(subs)
      .where(eq(subs.status, "failed")),
    db
      .select({ decisionId: subs.decisionId, caseId: decisions.caseId, error: subs.error, at: subs.updatedAt })
      .from(subs)
      .innerJoin(decisions, eq(decisions.id, subs.decisionId))
      .where(eq(subs.status, "failed"))
      .orderBy(sql`${subs.updatedAt} DESC`)
      .limit(10),
  ]);
  return { count: total?.n ?? 0, recent };
}

/** Puts a decision's statement on the queue (after its batch wrote the row). */
export async function enqueueStatement(env: Pick<Env, "DSA_QUEUE">, decisionId: string) {
  await env.DSA_QUEUE.send({ decisionId });
}

/** A refused statement sent again after a fix, or a failed one once the database answers (admin or moderator; audited). */
export async function resubmitStatement(env: Pick<Env, "DB" | "DSA_QUEUE">, actor: Actor, decisionId: string) {
  const db = getDb(env.DB);
  const { dsaSubmissions: subs } = schema;
  const [flipped] = await db.batch([
    db
      .update(subs)
      .set({ status: "queued", updatedAt: nowS() })
      .where(and(eq(subs.decisionId, decisionId), inArray(subs.status, ["refused", "failed"]))),
    auditAfterChange(db, actor, { action: "dsa.resubmit", targetType: "decision", targetId: decisionId }),
  ]);
  if ((flipped.meta.changes ?? 0) === 0) return false;
  await enqueueStatement(env, decisionId);
  return true;
}
