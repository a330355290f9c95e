/**
 * Sending a campaign (decision 183): the audience is paged by user id through the notification queue,
 * one `campaign_page` message per CAMPAIGN_PAGE members, so a brand of 200,000 members is never one
 * call or one query. Each page enqueues the eligible members' `campaign` events, moves the cursor and
 * counts the skipped in one guarded update (on the status and the cursor it read), then enqueues the
 * next page. A paused campaign's page does nothing; two messages for the same page (a retry, the
 * cron's re-kick) both read the same cursor and only one moves it; the once-only key in
 * notification_log (`<type>:<ref>:mail`) keeps a re-enqueued member from a second mail.
 *
 * Kept apart from notify.server.ts (which imports it for the consumer) so the console's model can
 * import both without a circle.
 */
import { and, eq, gte, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import type { CampaignStatus } from "../../db/schema";
import { nowS } from "~/lib/dates";
import type { Env } from "~/lib/env";
import { enqueue, enqueueAll } from "./notify-queue";

export type CampaignSendEnv = Pick<Env, "DB" | "NOTIFY_QUEUE">;
export type CampaignRow = typeof schema.campaigns.$inferSelect;
export type Audience = Pick<CampaignRow, "brandId" | "type" | "language" | "country" | "plan" | "activeDays">;

/** Members per page (one queue message, one read of at most this many rows, a few sendBatch calls). */
export const CAMPAIGN_PAGE = 500;
/** A sending campaign whose cursor has not moved for this long is started again by the cron. */
const STALLED_AFTER_S = 15 * 60;

/** A brand's own language from its locale ("nl_NL" → "nl"): the campaign texts it must have, everyone's fallback. */
export const brandLanguage = (domainLanguage: string) => domainLanguage.slice(0, 2).toLowerCase();

/** The once-only ref of a campaign: the script's own, or `c<id>`. */
export const campaignRef = (c: Pick<CampaignRow, "id" | "ref">) => c.ref ?? `c${c.id}`;

/** The audience filter: the brand and the operator's choices (language, country, free/premium, active lately). */
function audienceWhere(a: Audience, now: number): SQL[] {
  const { users: u, profiles: p } = schema;
  const where: SQL[] = [eq(u.brandId, a.brandId)];
  if (a.language) where.push(eq(u.language, a.language));
  if (a.country) where.push(eq(p.country, a.country));
  if (a.plan !== "all") where.push(eq(u.paidUser, a.plan === "premium"));
  if (a.activeDays) where.push(gte(u.lastSeenAt, now - a.activeDays * 86_400));
  return where;
}

/**
 * 1 when the member is mailed: activated, not deleted, visible, not suspended or banned, the type not
 * switched off for any reason (user, list-unsubscribe, bounce, complaint). Otherwise skipped.
 */
function eligibleSql(type: string, now: number) {
  const { users: u, notificationsDisabled: nd } = schema;
  return sql<number>`(${u.status} = 'confirmed' AND ${u.deletedAt} IS NULL AND ${u.invisible} = 0
    AND (${u.suspendedUntil} IS NULL OR ${u.suspendedUntil} <= ${now})
    AND NOT EXISTS (SELECT 1 FROM ${nd} WHERE ${nd.userId} = ${u.id} AND ${nd.type} = ${type}))`;
}

/** The audience before sending, in one COUNT over users(brand_id, id): everyone matching, and who would be mailed. */
export async function countAudience(d1: D1Database, a: Audience, now = nowS()) {
  const { users: u, profiles: p } = schema;
  const [row] = await getDb(d1)
    .select({
      total: sql<number>`COUNT(*)`.as("total"),
      eligible: sql<number>`COALESCE(SUM(${eligibleSql(a.type, now)}), 0)`.as("eligible"),
    })
    .from(u)
    .leftJoin(p, eq(p.userId, u.id))
    .where(and(...audienceWhere(a, now)));
  return { total: row?.total ?? 0, eligible: row?.eligible ?? 0 };
}

/** One page of the audience after `cursor`, by id, each with whether they are mailed. */
function pageQuery(d1: D1Database, c: CampaignRow, now: number, size: number) {
  const { users: u, profiles: p } = schema;
  return getDb(d1)
    .select({ id: u.id, eligible: eligibleSql(c.type, now).as("eligible") })
    .from(u)
    .leftJoin(p, eq(p.userId, u.id))
    .where(and(...audienceWhere(c, now), c.cursor === null ? undefined : sql`${u.id} > ${c.cursor}`))
    .orderBy(u.id)
    .limit(size);
}

export type PageOutcome = "stopped" | "lost" | "next" | "done";

/**
 * Handles the next page of a campaign (the consumer's `campaign_page`): "stopped" when it is not
 * sending (paused, done, unknown), "lost" when another message handled this page first.
 */
export async function runCampaignPage(
  env: CampaignSendEnv,
  campaignId: number,
  now = nowS(),
  size = CAMPAIGN_PAGE,
): Promise<PageOutcome> {
  const db = getDb(env.DB);
  const C = schema.campaigns;
  const [c] = await db.select().from(C).where(eq(C.id, campaignId));
  if (!c || c.status !== "sending") return "stopped";
  const rows = await pageQuery(env.DB, c, now, size);
  const ref = campaignRef(c);
  // Enqueued before the cursor moves: a failure after this retries the page, never loses it.
  await enqueueAll(
    env,
    rows
      .filter((r) => r.eligible)
      .map((r) => ({ kind: "campaign", type: c.type, userId: r.id, ref, path: c.path, campaignId: c.id })),
  );
  const done = rows.length < size;
  const res = await db
    .update(C)
    .set({
      cursor: rows.at(-1)?.id ?? c.cursor,
      skipped: sql`${C.skipped} + ${rows.filter((r) => !r.eligible).length}`,
      status: done ? "done" : "sending",
      updatedAt: now,
    })
    .where(and(eq(C.id, c.id), eq(C.status, "sending"), c.cursor === null ? isNull(C.cursor) : eq(C.cursor, c.cursor)));
  if (res.meta.changes !== 1) return "lost";
  if (done) return "done";
  // Not through enqueue (which swallows errors): a failure here retries this page, which then finds
  // its cursor moved and carries on with the next one.
  await env.NOTIFY_QUEUE.send({ kind: "campaign_page", campaignId: c.id }, { contentType: "json" });
  return "next";
}

/** Starts a campaign's paging (after the status change that made it `sending` was written). */
export const startPaging = (env: CampaignSendEnv, campaignId: number) =>
  enqueue(env, { kind: "campaign_page", campaignId });

/**
 * The cron's part: scheduled campaigns whose time has come start sending (guarded on `scheduled`),
 * and a sending campaign whose cursor has not moved for a while (its page message was lost) is
 * started again; a duplicate page message changes nothing (see runCampaignPage).
 */
export async function startDueCampaigns(env: CampaignSendEnv, now = nowS()) {
  const db = getDb(env.DB);
  const C = schema.campaigns;
  const due = await db
    .select({ id: C.id, status: C.status })
    .from(C)
    .where(
      or(
        and(eq(C.status, "scheduled"), lt(C.sendAt, now + 1)),
        and(eq(C.status, "sending"), lt(C.updatedAt, now - STALLED_AFTER_S)),
      ),
    );
  for (const c of due) {
    if (c.status === "scheduled") {
      const res = await db
        .update(C)
        .set({ status: "sending", updatedAt: now })
        .where(and(eq(C.id, c.id), eq(C.status, "scheduled")));
      if (res.meta.changes !== 1) continue;
    }
    await startPaging(env, c.id);
  }
  return due.length;
}

/** The consumer's count of one member's outcome (sent, skipped at send time, failed after the last retry). */
export function countOutcome(d1: D1Database, campaignId: number, field: "sent" | "skipped" | "failed") {
  const C = schema.campaigns;
  return getDb(d1)
    .update(C)
    .set({ [field]: sql`${C[field]} + 1` })
    .where(eq(C.id, campaignId));
}

export type { CampaignStatus };
