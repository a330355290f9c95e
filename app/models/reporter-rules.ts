/**
 * A reporter's record and the measure against misuse of notices (DSA Art. 23, decision 225): pure
 * rules, shared by the moderation model, the console and the tests.
 */
import type { ReportCategory } from "../../db/schema";

/** A notice's outcome: an unreversed restriction on its case, no action, or not decided yet. */
export type NoticeOutcome = "action" | "no_action" | "pending";

/**
 * The console's hint that a reporter may be misusing notices: at least `minDecided` of their notices
 * of the last `days` decided, and at least `unfoundedShare` of those without action. A hint for a
 * person to judge "manifestly unfounded", never a measure by itself.
 */
export const REPORTER_HINT = { days: 30, minDecided: 5, unfoundedShare: 0.8 } as const;

/** A suspension's length in days: set per decision, 30 proposed. */
export const REPORTER_SUSPENSION_DAYS = { min: 1, max: 180, proposed: 30 } as const;

/** A suspension needs a warning given within this many days before it (Art. 23(1): "after a prior warning"). */
export const WARNING_VALID_DAYS = 365;

/**
 * Categories processed whatever a suspension: they allege illegal content (a minor, intimate images
 * without consent, other illegal content such as threats to life), where knowledge obliges the host
 * to act (DSA Art. 6, Art. 18), and a mistaken notice costs a moderator one look.
 */
export const ALWAYS_PROCESSED: readonly ReportCategory[] = ["minor", "ncii", "illegal"];

export type ReporterStats = {
  total: number;
  action: number;
  noAction: number;
  pending: number;
  /** no action / decided, 0 when nothing is decided. */
  unfoundedShare: number;
};

export function reporterStats(outcomes: readonly NoticeOutcome[]): ReporterStats {
  const action = outcomes.filter((o) => o === "action").length;
  const noAction = outcomes.filter((o) => o === "no_action").length;
  const decided = action + noAction;
  return {
    total: outcomes.length,
    action,
    noAction,
    pending: outcomes.length - decided,
    unfoundedShare: decided === 0 ? 0 : noAction / decided,
  };
}

/** Whether the last `REPORTER_HINT.days` of notices cross the hint's threshold. */
export const crossesHint = (recent: ReporterStats) =>
  recent.action + recent.noAction >= REPORTER_HINT.minDecided && recent.unfoundedShare >= REPORTER_HINT.unfoundedShare;

/** "80 %" */
export const percent = (share: number) => `${Math.round(share * 100)} %`;
