import { lt } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import type { Env } from "./env";
import { purgeDeletedAccounts } from "../models/account-purge.server";
import { purgeHeldPhotos } from "../models/held-photos.server";
import { purgeEvidence } from "../models/admin/evidence.server";
import { purgeExpiredSessions } from "../models/session.server";
import { purgeExpiredTokens } from "../models/tokens.server";
import { runNotificationSchedules } from "../models/notify.server";
import { staleRequestsStatement } from "../models/directdebit.server";
import { requeueStaleChecks, sweepSilentPayments } from "../models/payments/checks.server";
import { drainOutbox } from "../wallet/outbox.server";
import { startWalletMigration } from "../wallet/migrate.server";
import { liftEndedRestrictions } from "../models/moderation.server";
import { purgeAgeRequests } from "../models/age-purge.server";
import { refreshAndAlert } from "../models/age-trust.server";
import { startDueCampaigns } from "../models/campaign-send.server";
import { startChatMigration } from "../models/chat.server";
import { returnUnansweredCredits } from "../models/team.server";
import { importSettlements, previousMonth } from "../models/settlements.server";

/** The hourly cron (wrangler.toml): only the unread reminders. */
export const HOURLY_CRON = "5 * * * *";

/**
 * The Cron Triggers: notification digests and reminders and the end of ended moderation restrictions
 * (hourly and daily), and the daily
 * housekeeping, where each model purges its own rows; the quota counters (shared by accounts and
 * likes, keyed by day) simply expire here.
 */
export async function runScheduled(controller: ScheduledController | null, env: Env) {
  const when = new Date(controller?.scheduledTime ?? Date.now());
  await runNotificationSchedules(env, controller?.cron ?? null, when);
  const now = Math.floor(Date.now() / 1000);
  // Payments and refunds whose provider answer was lost and whose queued re-check went missing.
  await requeueStaleChecks(env, now);
  // Open or pending payments whose webhook never came: asked at the provider (the sandbox's own pages need no delivery here).
  await sweepSilentPayments({ env, deliver: () => Promise.reject(new Error("no delivery from the cron")) }, now);
  // Wallet changes whose outbox row was not applied yet (the wallet was unreachable, a queue message lost).
  await drainOutbox(env, { olderThan: now - 60, limit: 500 });
  // Campaigns scheduled for now or earlier start paging; a stalled one is started again (decision 183).
  await startDueCampaigns(env, now);
  // Suspensions and messaging restrictions that have ended, without waiting for a login (decision 173).
  await liftEndedRestrictions(env.DB, now);
  // Paid messages to team-run profiles unanswered within the brand's window get their credits back (decision 201).
  await returnUnansweredCredits(env, now);
  if (controller?.cron === HOURLY_CRON) return;
  await purgeExpiredSessions(env.DB, now);
  await purgeExpiredTokens(env.DB, now);
  // Age requests long expired and proofs past their validity (decision 185).
  await purgeAgeRequests(env.DB, now);
  // The age attestation providers we trust, checked and kept for the day's verifications (decision 185).
  await refreshAndAlert(env, when);
  await getDb(env.DB).delete(schema.counters).where(lt(schema.counters.expiresAt, now));
  // Direct debit details that never became a mandate (the direct debit model decides which).
  await staleRequestsStatement(env.DB, now).run();
  // Accounts deleted more than REACTIVATION_DAYS ago (docs/product/states.md §4).
  // Balances and ledgers not yet in the members' wallets, until none is left (decision 189).
  await startWalletMigration(env);
  await purgeDeletedAccounts(env, now);
  // Photos removed by a decision whose appeal window has ended (decision 174).
  await purgeHeldPhotos(env, now);
  // Evidence of minors and intimate imagery past its retention (decision 218); each deletion audited.
  await purgeEvidence(env, now);
  // Messages still in D1 move into their conversations' objects, until none is left (decision 190).
  await startChatMigration(env);
  // Mollie's settlements of last month, reconciled (decision 209): the first days of each month, as its
  // last settlements are paid out (importing again replaces them; the console can import on demand).
  if (when.getUTCDate() <= SETTLEMENT_IMPORT_DAYS)
    await importSettlements(
      { env, deliver: () => Promise.reject(new Error("no delivery from the cron")) },
      previousMonth(now),
      now,
    );
}

/** Days at the start of a month on which the daily cron imports the month before's settlements. */
export const SETTLEMENT_IMPORT_DAYS = 7;
