import type { Env } from "./env";
import { purgeDeletedAccounts } from "../models/account-purge.server";
import { staleRequestsStatement } from "../models/directdebit.server";

/** The daily Cron Trigger: housekeeping jobs (expired sessions, tokens and counters; deleted accounts). */
export async function runScheduled(_controller: ScheduledController | null, env: Env) {
  const now = Math.floor(Date.now() / 1000);
  await env.DB.batch([
    env.DB.prepare("DELETE FROM sessions WHERE expires_at < ?").bind(now),
    env.DB.prepare("DELETE FROM tokens WHERE expires_at < ?").bind(now - 86400),
    env.DB.prepare("DELETE FROM counters WHERE expires_at < ?").bind(now),
    staleRequestsStatement(env.DB, now),
  ]);
  // Accounts deleted more than REACTIVATION_DAYS ago (SPEC section 4).
  await purgeDeletedAccounts(env, now);
}
