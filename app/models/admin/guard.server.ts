/**
 * Dangerous console actions (decision 217): a destructive or bulk action first answers with a
 * confirmation step that names its impact ("Mail 41,300 members"), a plain form re-posting what was
 * asked (no JavaScript); the dangerous ones ask for the TOTP code (or, without a key, the password)
 * again; each operator may confirm CONSOLE_LIMITER's few a minute; above a threshold the action waits
 * for a second admin (`console_approvals`, /admin/approvals) instead of running.
 */
import { and, eq, lt } from "drizzle-orm";
import { getDb, schema } from "../../../db/client";
import { nowS } from "~/lib/dates";
import type { Env } from "~/lib/env";
import { randomId, verifyPassword } from "~/lib/password";
import { auditStatement } from "./audit.server";
import { totpStep, type Operator } from "./operators.server";

/** What each guarded action asks: the secret again, and which threshold sends it to a second admin. */
export const GUARDED = {
  "campaign.send": { reauth: true, threshold: "campaign" },
  "credits.grant": { reauth: true, threshold: "credits" },
  refund: { reauth: true, threshold: "refund" },
  "member.delete": { reauth: true, threshold: null },
  // Approving a second-approver request runs the dangerous action: the approver proves it is them too.
  "approval.approve": { reauth: true, threshold: null },
  "package.stop": { reauth: false, threshold: null },
  "price.change": { reauth: false, threshold: null },
} as const satisfies Record<string, { reauth: boolean; threshold: Threshold | null }>;
export type GuardedKind = keyof typeof GUARDED;
type Threshold = "campaign" | "credits" | "refund";

/** The defaults: a grant above 1,000 credits, a refund above €100, a campaign to more than 5,000 members. */
export const APPROVAL_DEFAULTS: Record<Threshold, number> = { credits: 1_000, refund: 10_000, campaign: 5_000 };

type GuardEnv = Pick<
  Env,
  | "DB"
  | "PASSWORD_PEPPER"
  | "CONSOLE_LIMITER"
  | "APPROVAL_CREDITS_ABOVE"
  | "APPROVAL_REFUND_CENTS_ABOVE"
  | "APPROVAL_CAMPAIGN_ABOVE"
>;

/** The thresholds in force: the settings where they are whole numbers, else the defaults. */
export function approvalThresholds(env: GuardEnv): Record<Threshold, number> {
  const n = (v: string | undefined, d: number) => (/^\d{1,12}$/.test(v?.trim() ?? "") ? Number(v) : d);
  return {
    credits: n(env.APPROVAL_CREDITS_ABOVE, APPROVAL_DEFAULTS.credits),
    refund: n(env.APPROVAL_REFUND_CENTS_ABOVE, APPROVAL_DEFAULTS.refund),
    campaign: n(env.APPROVAL_CAMPAIGN_ABOVE, APPROVAL_DEFAULTS.campaign),
  };
}

/** The confirmation step a page shows: the impact, the form's fields to post again, what to re-enter. */
export type Confirmation = {
  impact: string;
  fields: [string, string][];
  reauth: "code" | "password" | null;
  error?: string;
};

export type Guarded =
  | { go: true }
  | { confirm: Confirmation }
  | { refused: string }
  | { pending: string; impact: string };

/** Fields of the confirmation step itself, never posted again. */
const OWN_FIELDS = new Set(["confirmed", "reauth_password", "reauth_code"]);

/**
 * Decides whether a guarded action runs now. The first post gets its confirmation; the confirmed one
 * is counted against the operator's rate limit, checks the secret, and above the threshold becomes a
 * pending approval (audited) holding `params`, which the approving admin's action replays.
 */
export async function guardAction(
  env: GuardEnv,
  operator: Operator,
  form: FormData,
  a: {
    kind: GuardedKind;
    impact: string;
    /** The measure compared with the kind's threshold: credits, cents, recipients. */
    size?: number;
    target: { type: string; id: string };
    params?: Record<string, unknown>;
  },
  now = nowS(),
): Promise<Guarded> {
  const rule = GUARDED[a.kind];
  const db = getDb(env.DB);
  const [row] = await db
    .select({
      totpSecret: schema.operators.totpSecret,
      totpLastStep: schema.operators.totpLastStep,
      passwordHash: schema.operators.passwordHash,
    })
    .from(schema.operators)
    .where(eq(schema.operators.id, operator.id));
  if (!row) return { refused: "Your account is gone." };
  const confirmation = (error?: string): Guarded => ({
    confirm: {
      impact: a.impact,
      fields: [...form].filter(([k, v]) => !OWN_FIELDS.has(k) && typeof v === "string") as [string, string][],
      reauth: rule.reauth ? (row.totpSecret ? "code" : "password") : null,
      ...(error ? { error } : {}),
    },
  });
  if (form.get("confirmed") !== "1") return confirmation();
  if (env.CONSOLE_LIMITER) {
    const { success } = await env.CONSOLE_LIMITER.limit({ key: `console:${operator.id}` });
    if (!success) {
      await auditStatement(
        db,
        operator,
        { action: "console.rate_limited", targetType: a.target.type, targetId: a.target.id, after: { kind: a.kind } },
        now,
      );
      return { refused: "Too many destructive actions in a minute: wait a minute, then confirm again." };
    }
  }
  if (rule.reauth) {
    if (row.totpSecret) {
      const step = totpStep(row.totpSecret, String(form.get("reauth_code") ?? "").trim(), row.totpLastStep, now);
      // Guarded on the step read: a code confirms one action.
      const used =
        step !== null &&
        (
          await db
            .update(schema.operators)
            .set({ totpLastStep: step })
            .where(and(eq(schema.operators.id, operator.id), lt(schema.operators.totpLastStep, step)))
        ).meta.changes === 1;
      if (!used) return confirmation("The authentication code is wrong or was already used.");
    } else if (
      !(await verifyPassword(
        String(form.get("reauth_password") ?? "").slice(0, 200),
        row.passwordHash,
        env.PASSWORD_PEPPER,
      ))
    ) {
      return confirmation("The password is wrong.");
    }
  }
  const limit = rule.threshold ? approvalThresholds(env)[rule.threshold] : null;
  if (limit !== null && (a.size ?? 0) > limit) {
    const id = randomId();
    await db.batch([
      db.insert(schema.consoleApprovals).values({
        id,
        kind: a.kind,
        targetType: a.target.type,
        targetId: a.target.id,
        params: a.params ?? {},
        impact: a.impact,
        requestedBy: operator.id,
        requestedAt: now,
      }),
      auditStatement(
        db,
        operator,
        {
          action: "approval.request",
          targetType: a.target.type,
          targetId: a.target.id,
          after: { approval: id, kind: a.kind, size: a.size, threshold: limit },
        },
        now,
      ),
    ]);
    return { pending: id, impact: a.impact };
  }
  return { go: true };
}

/** What a route answers for a guarded action that does not run now (null: run it). */
export function guardAnswer(g: Guarded) {
  if ("go" in g) return null;
  if ("confirm" in g) return { confirm: g.confirm };
  if ("refused" in g) return { error: g.refused };
  return { done: `Waiting for a second admin's approval: ${g.impact}. It is listed under Approvals.` };
}
