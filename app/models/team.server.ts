/**
 * Nothing paid goes unanswered (decision 201): a member's paid message to a team-run profile that has
 * had no reply within the brand's window (`team_reply_hours`, default 24) gets its credits back, once,
 * through the member's wallet, with a line in the conversation. The hourly cron walks the inbox rows
 * that may owe credits (their own index); each conversation's object decides and gives back.
 */
import { and, asc, eq, isNotNull, lte, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { roomStub } from "../chat/stubs";
import type { Env } from "../lib/env";
import { logError } from "../lib/log.server";
import { nowS } from "../lib/dates";

/** The shortest reply window a brand may set (hours). */
export const TEAM_REPLY_HOURS_MIN = 1;
/** Conversations looked at per cron run (the rest the next hour). */
export const RETURN_BATCH = 500;

/** Gives back what is due everywhere; answers the conversations that gave credits back and how many. */
export async function returnUnansweredCredits(env: Pick<Env, "DB" | "CHAT_ROOM">, now = nowS()) {
  const { teamConversations: tc, brands } = schema;
  const due = await getDb(env.DB)
    .select({ conversationId: tc.conversationId, brandId: tc.brandId, hours: brands.teamReplyHours })
    .from(tc)
    .innerJoin(brands, eq(brands.id, tc.brandId))
    .where(
      and(
        isNotNull(tc.refundFrom),
        lte(tc.refundFrom, now - TEAM_REPLY_HOURS_MIN * 3600),
        sql`${tc.refundFrom} <= ${now} - MAX(${brands.teamReplyHours}, ${TEAM_REPLY_HOURS_MIN}) * 3600`,
      ),
    )
    .orderBy(asc(tc.refundFrom))
    .limit(RETURN_BATCH);
  let conversations = 0;
  let credits = 0;
  for (const d of due) {
    try {
      const given = await roomStub(env, d.conversationId).returnUnanswered(
        d.conversationId,
        Math.max(d.hours, TEAM_REPLY_HOURS_MIN),
        now,
      );
      if (given.messages === 0) continue;
      conversations++;
      credits += given.credits;
      // The dashboard's figures: these paid messages were not answered in time.
      await getDb(env.DB).insert(schema.teamEvents).values({
        kind: "return",
        brandId: d.brandId,
        conversationId: d.conversationId,
        at: now,
        paid: given.messages,
        credits: given.credits,
      });
    } catch (e) {
      // The next hour tries again (the wallet's keys make a repeat harmless).
      logError("team.return_failed", e, { conversationId: d.conversationId });
    }
  }
  return { conversations, credits };
}
