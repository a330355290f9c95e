import { lt } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import type { Env } from "./env";
import { purgeDeletedAccounts } from "../models/account-purge.server";
import { purgeExpiredSessions } from "../models/session.server";
import { purgeExpiredTokens } from "../models/tokens.server";
import { staleRequestsStatement } from "../models/directdebit.server";

/**
 * The daily Cron Trigger: housekeeping. Each model purges its own rows; the quota counters
 * (shared by accounts and likes, keyed by day) simply expire here.
 */
export async function runScheduled(_controller: ScheduledController | null, env: Env) {
  const now = Math.floor(Date.now() / 1000);
  await purgeExpiredSessions(env.DB, now);
  await purgeExpiredTokens(env.DB, now);
  await getDb(env.DB).delete(schema.counters).where(lt(schema.counters.expiresAt, now));
  // Direct debit details that never became a mandate (the direct debit model decides which).
  await staleRequestsStatement(env.DB, now).run();
  // Accounts deleted more than REACTIVATION_DAYS ago (SPEC section 4).
  await purgeDeletedAccounts(env, now);
}
