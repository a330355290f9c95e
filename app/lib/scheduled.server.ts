import type { Env } from "./env";
import { purgeDeletedAccounts } from "../models/account-purge.server";
import { runNotificationSchedules } from "../models/notify.server";
import { staleRequestsStatement } from "../models/directdebit.server";

/** The hourly cron (wrangler.toml): only the unread reminders. */
export const HOURLY_CRON = "5 * * * *";

/**
 * The Cron Triggers: notification digests and reminders (hourly and daily), and the daily housekeeping
 * (expired sessions, tokens and counters; deleted accounts).
 */
export async function runScheduled(controller: ScheduledController | null, env: Env) {
  const when = new Date(controller?.scheduledTime ?? Date.now());
  await runNotificationSchedules(env, controller?.cron ?? null, when);
  if (controller?.cron === HOURLY_CRON) return;
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
