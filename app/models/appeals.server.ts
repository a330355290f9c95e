/**
 * Appeals (DSA Art. 20, decision 174), the internal complaint-handling system: the member files an
 * appeal from the statement of reasons (signed link, no login needed) within six months; an operator
 * other than the one who decided upholds or reverses it with reasons, never automatically; a
 * reversal restores what was removed where possible, in one guarded batch with the audit row; the
 * member is told the outcome in their language.
 */
import { and, asc, desc, eq, isNull, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import type { Language } from "~/lib/constants";
import { nowS } from "~/lib/dates";
import type { Env } from "~/lib/env";
import { getFixedT, isLanguage } from "~/lib/i18n.server";
import { randomId } from "~/lib/password";
import { caseContent } from "./admin/queue.server";
import { appealDeadline } from "./held-photos.server";
import { forgetChatRules } from "./chat.server";
import type { RemovedContent } from "./moderation-rules";
import { roomStub } from "~/chat/stubs";
import { mailerFor, renderMail } from "./mail.server";
import { statementOf, statementToken } from "./moderation.server";

export { appealDeadline };
export const APPEAL_EXPLANATION_MIN = 10;
export const APPEAL_EXPLANATION_MAX = 3000;
export const APPEAL_REASONS_MIN = 10;

export type Appeal = typeof schema.appeals.$inferSelect;
export type AppealError = "not_found" | "not_yours" | "window" | "exists" | "not_appealable";

/** The member's appeal of a decision (or, with `noticeId`, that reporter's), if one was filed. */
export async function appealOf(d1: D1Database, decisionId: string, noticeId = 0): Promise<Appeal | null> {
  const { appeals } = schema;
  const [row] = await getDb(d1)
    .select()
    .from(appeals)
    .where(and(eq(appeals.decisionId, decisionId), eq(appeals.noticeId, noticeId)));
  return row ?? null;
}

/**
 * What a reporter's review link shows (decision 219): their notice, the case's latest decision and
 * their request for a review of it, if any. Null when the notice is gone.
 */
export async function reporterReview(d1: D1Database, noticeId: number) {
  const db = getDb(d1);
  const { notices, decisions, moderationCases: cases, appeals } = schema;
  const [row] = await db
    .select({ notice: notices, targetType: cases.targetType })
    .from(notices)
    .innerJoin(cases, eq(cases.id, notices.caseId))
    .where(eq(notices.id, noticeId));
  if (!row) return null;
  const [d] = await db
    .select()
    .from(decisions)
    .where(and(eq(decisions.caseId, row.notice.caseId), sql`${decisions.createdAt} >= ${row.notice.createdAt}`))
    .orderBy(desc(decisions.createdAt), desc(sql`${decisions}.rowid`))
    .limit(1);
  const [appeal] = d
    ? await db
        .select()
        .from(appeals)
        .where(and(eq(appeals.decisionId, d.id), eq(appeals.noticeId, noticeId)))
    : [];
  return { ...row, decision: d ?? null, appeal: appeal ?? null };
}

/**
 * A reporter asks for a review of a decision to take no action on their notice (DSA Art. 20(1),
 * decision 219): within the appeal window, once per notice and decision; decided like a member's
 * appeal, by an operator other than the one who decided.
 */
export async function fileReporterAppeal(
  d1: D1Database,
  noticeId: number,
  input: { explanation: string; language: Language },
  now = nowS(),
): Promise<{ ok: true; appealId: string } | { ok: false; error: AppealError }> {
  const review = await reporterReview(d1, noticeId);
  const d = review?.decision;
  if (!review || !d) return { ok: false, error: "not_found" };
  if (d.action !== "no_action" || d.reversedAt !== null) return { ok: false, error: "not_appealable" };
  if (now >= appealDeadline(d.createdAt)) return { ok: false, error: "window" };
  const id = randomId();
  const inserted = await getDb(d1)
    .insert(schema.appeals)
    .values({
      id,
      decisionId: d.id,
      memberId: d.memberId,
      noticeId,
      explanation: input.explanation.slice(0, APPEAL_EXPLANATION_MAX),
      language: input.language,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: schema.appeals.id });
  if (inserted.length === 0) return { ok: false, error: "exists" };
  return { ok: true, appealId: id };
}

/** Whether the member may still appeal this decision now (the statement shows the form). */
export function mayAppeal(d: { action: string; createdAt: number; reversedAt: number | null }, now = nowS()) {
  return d.action !== "no_action" && d.reversedAt === null && now < appealDeadline(d.createdAt);
}

/**
 * Files the member's appeal against a decision: refused after the window, on a decision that
 * restricted nothing, on someone else's decision (a logged-in member who is not its member) or when
 * the decision already has an appeal (the unique index decides a race: one row, the other refused).
 */
export async function fileAppeal(
  d1: D1Database,
  decisionId: string,
  input: { sessionMemberId: string | null; explanation: string; language: Language },
  now = nowS(),
): Promise<{ ok: true; appealId: string } | { ok: false; error: AppealError }> {
  const db = getDb(d1);
  const { decisions, appeals } = schema;
  const [d] = await db.select().from(decisions).where(eq(decisions.id, decisionId));
  if (!d) return { ok: false, error: "not_found" };
  if (input.sessionMemberId && input.sessionMemberId !== d.memberId) return { ok: false, error: "not_yours" };
  if (d.action === "no_action" || d.reversedAt !== null) return { ok: false, error: "not_appealable" };
  if (now >= appealDeadline(d.createdAt)) return { ok: false, error: "window" };
  const id = randomId();
  const inserted = await db
    .insert(appeals)
    .values({
      id,
      decisionId,
      memberId: d.memberId,
      explanation: input.explanation.slice(0, APPEAL_EXPLANATION_MAX),
      language: input.language,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: appeals.id });
  if (inserted.length === 0) return { ok: false, error: "exists" };
  return { ok: true, appealId: id };
}

/** The console's list: open appeals oldest first, or the latest decided ones. */
export async function listAppeals(d1: D1Database, which: "open" | "decided") {
  const { appeals, decisions, profiles } = schema;
  return getDb(d1)
    .select({
      id: appeals.id,
      status: appeals.status,
      createdAt: appeals.createdAt,
      decidedAt: appeals.decidedAt,
      action: decisions.action,
      decisionAt: decisions.createdAt,
      name: profiles.name,
    })
    .from(appeals)
    .innerJoin(decisions, eq(decisions.id, appeals.decisionId))
    .leftJoin(profiles, eq(profiles.userId, appeals.memberId))
    .where(which === "open" ? eq(appeals.status, "open") : sql`${appeals.status} != 'open'`)
    .orderBy(...(which === "open" ? [asc(appeals.createdAt), asc(appeals.id)] : [desc(appeals.decidedAt)]))
    .limit(which === "open" ? 200 : 20);
}

/** One appeal with its decision, the decision's operator, the case's notices and the member. */
export async function appealDetail(d1: D1Database, appealId: string) {
  const db = getDb(d1);
  const { appeals, decisions, moderationCases: cases, notices, operators, profiles, users, heldPhotos } = schema;
  const [row] = await db
    .select({
      a: appeals,
      d: decisions,
      targetType: cases.targetType,
      targetId: cases.targetId,
      severity: cases.severity,
      flaggedBy: cases.flaggedBy,
      decidedBy: operators.name,
      name: profiles.name,
      aboutMe: profiles.aboutMe,
      email: users.email,
    })
    .from(appeals)
    .innerJoin(decisions, eq(decisions.id, appeals.decisionId))
    .innerJoin(cases, eq(cases.id, decisions.caseId))
    .leftJoin(operators, eq(operators.id, decisions.operatorId))
    .leftJoin(users, eq(users.id, appeals.memberId))
    .leftJoin(profiles, eq(profiles.userId, appeals.memberId))
    .where(eq(appeals.id, appealId));
  if (!row) return null;
  const [list, held] = await db.batch([
    db.select().from(notices).where(eq(notices.caseId, row.d.caseId)).orderBy(asc(notices.id)),
    db
      .select({ id: heldPhotos.id, wasMain: heldPhotos.wasMain })
      .from(heldPhotos)
      .where(eq(heldPhotos.decisionId, row.d.id)),
  ]);
  // The second moderator sees what the first one decided on (a held photo included).
  const content = await caseContent(
    d1,
    { targetType: row.targetType, targetId: row.targetId, memberId: row.d.memberId, severity: row.severity },
    list,
  );
  return { ...row, notices: list, heldPhoto: held[0] ?? null, ...content };
}

type AppealEnv = Pick<Env, "DB" | "CHAT_ROOM" | "ENVIRONMENT" | "MAIL" | "MAIL_FROM" | "SESSION_SECRET">;

/**
 * Decides an open appeal: upheld, or reversed with what the decision removed restored. One D1 batch:
 * the appeal's status flips from open (guarded, and only for an operator who did not take the
 * decision), and every later statement (the decision marked reversed, the restoring effects, the
 * audit row) runs only if this batch's flip happened (its random outcome_ref). Then the member is
 * mailed the outcome in their language. Never automated: only an operator's form calls this.
 */
export async function decideAppeal(
  env: AppealEnv,
  operator: { id: string; role: string },
  appealId: string,
  input: { outcome: "upheld" | "reversed"; reasons: string },
  o: { origin: (brandDomain: string) => string; now?: number },
): Promise<{ ok: true } | { ok: false; error: "not_found" | "closed" | "same_operator" }> {
  const now = o.now ?? nowS();
  const db = getDb(env.DB);
  const { appeals, decisions, users, profiles, photos, heldPhotos, auditLog } = schema;
  const [row] = await db
    .select({ a: appeals, d: decisions })
    .from(appeals)
    .innerJoin(decisions, eq(decisions.id, appeals.decisionId))
    .where(eq(appeals.id, appealId));
  if (!row) return { ok: false, error: "not_found" };
  if (row.d.operatorId === operator.id) return { ok: false, error: "same_operator" };
  if (row.a.status !== "open") return { ok: false, error: "closed" };
  const { d } = row;
  const memberId = d.memberId;
  const ref = randomId();
  const ours = sql`EXISTS (SELECT 1 FROM ${appeals} WHERE ${appeals.id} = ${appealId} AND ${appeals.outcomeRef} = ${ref})`;
  const removed = (d.removed ?? {}) as RemovedContent & { profileStatus?: string };
  const reversed = input.outcome === "reversed";

  // What a reversal restores, per action: the one place to add an action's undo.
  const restore = [];
  if (reversed) {
    switch (d.action) {
      case "remove_photo": {
        const photoId = removed.photoId ?? "";
        const held = and(eq(heldPhotos.id, photoId), eq(heldPhotos.decisionId, d.id));
        restore.push(
          // Back from the hold (a photo deleted at once, minor or non-consensual imagery, cannot come back).
          // Every column of photos in table order; a reversed removal means the photo is fine: approved (decision 175).
          db.insert(photos).select(
            sql`SELECT ${heldPhotos.id}, ${heldPhotos.userId}, ${heldPhotos.isPrivate}, ${heldPhotos.width}, ${heldPhotos.height},
              ${heldPhotos.createdAt}, 'approved' FROM ${heldPhotos} WHERE ${held} AND ${ours}`,
          ),
          // The main photo again if it was, or if the profile has none now.
          db
            .update(profiles)
            .set({ mainPhotoId: photoId })
            .where(
              and(
                eq(profiles.userId, memberId),
                sql`(${profiles.mainPhotoId} IS NULL OR EXISTS (SELECT 1 FROM ${heldPhotos} WHERE ${held} AND ${heldPhotos.wasMain} = 1))`,
                sql`EXISTS (SELECT 1 FROM ${heldPhotos} WHERE ${held} AND ${heldPhotos.isPrivate} = 0)`,
                ours,
              ),
            ),
          db.delete(heldPhotos).where(and(held, ours)),
        );
        break;
      }
      case "reset_name":
        // The old name back, unless the member has chosen a new one since.
        restore.push(
          db
            .update(profiles)
            .set({ name: removed.name ?? "" })
            .where(and(eq(profiles.userId, memberId), eq(profiles.name, removed.resetTo ?? ""), ours)),
        );
        break;
      case "remove_profile_text":
        // The old text back, unless the member has written a new one since.
        restore.push(
          db
            .update(profiles)
            .set({ aboutMe: removed.aboutMe ?? "" })
            .where(and(eq(profiles.userId, memberId), eq(profiles.aboutMe, ""), ours)),
        );
        break;
      case "suspend":
      case "ban": {
        // Lifted unless another, unreversed suspension or ban still runs (this decision is already marked reversed).
        const stillRunning = sql`(SELECT max(${decisions.endsAt}) FROM ${decisions} WHERE ${decisions.memberId} = ${memberId}
          AND ${decisions.action} IN ('suspend', 'ban') AND ${decisions.reversedAt} IS NULL AND ${decisions.endsAt} > ${now})`;
        const before =
          removed.profileStatus && removed.profileStatus !== "suspended" ? removed.profileStatus : "active";
        restore.push(
          db
            .update(users)
            .set({ suspendedUntil: stillRunning })
            .where(and(eq(users.id, memberId), ours)),
          db
            .update(profiles)
            .set({ status: before as "active" | "disabled" })
            .where(
              and(
                eq(profiles.userId, memberId),
                eq(profiles.status, "suspended"),
                sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${memberId} AND ${users.suspendedUntil} IS NULL)`,
                ours,
              ),
            ),
        );
        break;
      }
      case "restrict_messaging":
        // Lifted unless another, unreversed restriction still runs (this decision is already marked reversed).
        restore.push(
          db
            .update(users)
            .set({
              messagingRestrictedUntil: sql`(SELECT max(${decisions.endsAt}) FROM ${decisions} WHERE ${decisions.memberId} = ${memberId}
                AND ${decisions.action} = 'restrict_messaging' AND ${decisions.reversedAt} IS NULL AND ${decisions.endsAt} > ${now})`,
            })
            .where(and(eq(users.id, memberId), ours)),
        );
        break;
      case "no_action": {
        // A reporter's review found action may be due: the case opens again for a new decision,
        // unless another case about the same target is open already.
        const { moderationCases: cases } = schema;
        restore.push(
          db
            .update(cases)
            .set({ status: "open", closedAt: null, assignedTo: null })
            .where(
              and(
                eq(cases.id, d.caseId),
                sql`NOT EXISTS (SELECT 1 FROM ${cases} AS other WHERE other.target_type = ${cases.targetType}
                  AND other.target_id = ${cases.targetId} AND other.status = 'open')`,
                ours,
              ),
            ),
        );
        break;
      }
      default:
        break;
    }
  }

  const [flipped] = await db.batch([
    db
      .update(appeals)
      .set({ status: input.outcome, operatorId: operator.id, reasons: input.reasons, decidedAt: now, outcomeRef: ref })
      .where(
        and(
          eq(appeals.id, appealId),
          eq(appeals.status, "open"),
          // Never the operator who took the decision, even if the pre-check above raced.
          sql`NOT EXISTS (SELECT 1 FROM ${decisions} WHERE ${decisions.id} = ${appeals.decisionId} AND ${decisions.operatorId} = ${operator.id})`,
        ),
      ),
    db
      .update(decisions)
      .set({ reversedAt: now })
      .where(and(eq(decisions.id, d.id), isNull(decisions.reversedAt), sql`${reversed ? 1 : 0} = 1`, ours)),
    ...restore,
    db.insert(auditLog).select(
      sql`SELECT NULL, ${now}, ${operator.id}, ${operator.role}, ${`appeal.${input.outcome}`}, 'member', ${memberId},
      ${input.reasons.slice(0, 2000)}, ${JSON.stringify({ action: d.action, removed: d.removed ?? null })},
      ${JSON.stringify({ appeal: appealId, decision: d.id, outcome: input.outcome })} WHERE ${ours}`,
    ),
  ]);
  if ((flipped?.meta.changes ?? 0) !== 1) return { ok: false, error: "closed" };
  // The conversations' objects cache what a send checks (decision 190): a lifted suspension, ban or
  // restriction counts from the member's next message, not after the cache's minute.
  if (reversed && ["suspend", "ban", "restrict_messaging"].includes(d.action)) await forgetChatRules(env, memberId);
  // A removed message goes back into its conversation's object, for both members (decision 205).
  const m = removed.message;
  if (reversed && d.action === "remove_message" && m)
    await roomStub(env, m.conversationId).restoreMessage(m.conversationId, {
      seq: m.seq,
      sender_id: memberId,
      client_id: m.clientId,
      kind: m.kind,
      body: m.body,
      gift_id: m.giftId,
      credits_charged: 0,
      held: 0,
      created_at: m.createdAt,
    });
  await mailOutcome(env, appealId, o.origin);
  return { ok: true };
}

/**
 * The appeal's outcome, mailed in the appellant's language: the member with the link to the
 * statement, or the reporter who asked for a review of "no action" (decision 219).
 */
async function mailOutcome(env: AppealEnv, appealId: string, originOf: (brandDomain: string) => string) {
  const { appeals, notices, users } = schema;
  const [a] = await getDb(env.DB).select().from(appeals).where(eq(appeals.id, appealId));
  const s = a ? await statementOf(env.DB, a.decisionId) : null;
  if (!s || !a || a.status === "open") return;
  const origin = originOf(s.brandDomain);
  if (a.noticeId !== 0) {
    const [r] = await getDb(env.DB)
      .select({
        email: sql<string | null>`coalesce(${users.email}, ${notices.reporterEmail})`,
        language: notices.language,
      })
      .from(notices)
      .leftJoin(users, eq(users.id, notices.reporterId))
      .where(eq(notices.id, a.noticeId));
    if (!r?.email) return;
    const lng: Language = isLanguage(r.language) ? r.language : "en";
    const t = await getFixedT(lng, "safety");
    const { text, html } = renderMail({
      greeting: t("mail.greetingVisitor"),
      body: [t(`review.${a.status}`), `${t("appeal.reasons")}: ${a.reasons ?? ""}`, t("redress")].join("\n\n"),
      action: t("mail.received.action"),
      link: `${origin}/pages/terms`,
      footer: [t("mail.footer", { brand: s.brandName })],
    });
    await mailerFor(env).send({
      brandId: s.brandId,
      to: r.email,
      subject: t("appeal.mailSubject", { brand: s.brandName }),
      text,
      html,
      fromName: s.brandName,
    });
    return;
  }
  const lng: Language = isLanguage(s.language) ? s.language : "en";
  const t = await getFixedT(lng, "safety");
  const link = `${origin}/statement/${encodeURIComponent(await statementToken(env.SESSION_SECRET, s.d.id))}`;
  const { text, html } = renderMail({
    greeting: t("mail.greeting", { name: s.name }),
    body: [t(`appeal.outcome.${a.status}`), `${t("appeal.reasons")}: ${a.reasons ?? ""}`, t("redress")].join("\n\n"),
    action: t("appeal.view"),
    link,
    footer: [t("statement.footer", { brand: s.brandName })],
  });
  await mailerFor(env).send({
    brandId: s.brandId,
    to: s.email,
    subject: t("appeal.mailSubject", { brand: s.brandName }),
    text,
    html,
    fromName: s.brandName,
  });
}
