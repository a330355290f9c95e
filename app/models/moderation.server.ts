/**
 * Notice and action (decision 167): members and visitors report a profile, a photo or a
 * message (DSA Art. 16); every notice about the same target joins its one open case, whose severity
 * is its most severe category (minor and non-consensual imagery first). The reporter gets a
 * confirmation mail in their language. Operators decide in the console (app/routes/admin/admin.reports*).
 */
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { REPORT_CATEGORIES, type DecisionAction, type ReportCategory } from "../../db/schema";
import type { Language } from "~/lib/constants";
import { nowS } from "~/lib/dates";
import type { Env } from "~/lib/env";
import { getFixedT } from "~/lib/i18n.server";
import { randomId } from "~/lib/password";
import { mailerFor, renderMail } from "./mail.server";
import { appealDeadline, holdPhotoStatement } from "./held-photos.server";
import { deleteObjects } from "./photos.server";
import { closeRevokedSockets } from "./session.server";
import { roomStub } from "~/chat/stubs";
import { forgetChatRules } from "./chat.server";
import { decisionDate, hasDays, type RemovedContent } from "./moderation-rules";
import { reportsFlagStatements } from "./signals.server";
import { countEvent } from "~/lib/metrics.server";
import { enqueueStatement, queueSubmissionStatement } from "./dsa-submit.server";
import { preserveEvidence } from "./admin/evidence.server";
import { activeReporterSuspension } from "./reporters.server";
import { ALWAYS_PROCESSED } from "./reporter-rules";

export { REPORT_CATEGORIES, type ReportCategory };
export { hasDays, messagingRestricted } from "./moderation-rules";
export const severityOf = (category: ReportCategory) => REPORT_CATEGORIES.indexOf(category);
/** Categories where the reporter confirms good faith and explains (DSA Art. 16(2)). */
export const needsGoodFaith = (category: ReportCategory) => category === "illegal";
export const EXPLANATION_MAX = 2000;

export type ReportTarget =
  | { type: "member"; id: string }
  | { type: "photo"; id: string }
  | { type: "message"; conversationId: string; seq: number };

export const targetKey = (t: ReportTarget) => (t.type === "message" ? `${t.conversationId}:${t.seq}` : t.id);

/** Parses ?member=…, ?photo=… or ?message=<conversation>:<seq> into a target. */
export function parseTarget(params: URLSearchParams): ReportTarget | null {
  const id = /^[\w-]{1,64}$/;
  const member = params.get("member");
  if (member && id.test(member)) return { type: "member", id: member };
  const photo = params.get("photo");
  if (photo && id.test(photo)) return { type: "photo", id: photo };
  const m = /^([\w-]{1,64}):(\d{1,9})$/.exec(params.get("message") ?? "");
  if (m) return { type: "message", conversationId: m[1]!, seq: Number(m[2]) };
  return null;
}

/**
 * Who the target belongs to, if `reporterId` (null: a visitor) may report it: a visitor only a
 * member's profile; a message only the other participant of its conversation, and only a message
 * the other one wrote. Null for anything else (not found, own content, deleted).
 */
export async function targetOwner(
  env: Pick<Env, "DB" | "CHAT_ROOM">,
  target: ReportTarget,
  reporterId: string | null,
): Promise<{ memberId: string; brandId: number } | null> {
  const d1 = env.DB;
  const db = getDb(d1);
  const { users, photos, conversations } = schema;
  let owner: { memberId: string; brandId: number } | undefined;
  if (target.type === "member") {
    [owner] = await db
      .select({ memberId: users.id, brandId: users.brandId })
      .from(users)
      .where(and(eq(users.id, target.id), isNull(users.deletedAt)));
  } else if (!reporterId) {
    return null;
  } else if (target.type === "photo") {
    [owner] = await db
      .select({ memberId: users.id, brandId: users.brandId })
      .from(photos)
      .innerJoin(users, eq(users.id, photos.userId))
      .where(and(eq(photos.id, target.id), isNull(users.deletedAt)));
  } else {
    // Only a member of the conversation reports its messages; the message itself is in its object (decision 190).
    const [member] = await db
      .select({ id: conversations.id })
      .from(conversations)
      .where(
        and(
          eq(conversations.id, target.conversationId),
          sql`${reporterId} IN (${conversations.memberA}, ${conversations.memberB})`,
        ),
      );
    const [message] = member
      ? await roomStub(env, target.conversationId).excerpt(target.conversationId, target.seq, 0)
      : [];
    if (message && message.id === target.seq)
      [owner] = await db
        .select({ memberId: users.id, brandId: users.brandId })
        .from(users)
        .where(eq(users.id, message.senderId));
  }
  if (!owner || owner.memberId === reporterId) return null;
  return owner;
}

export type NoticeInput = {
  target: ReportTarget;
  reporter: { id: string; email: string; name: string } | { id: null; email: string; name: null };
  category: ReportCategory;
  explanation: string;
  goodFaith: boolean;
  language: Language;
};

/**
 * Files a notice: opens the target's case or joins its open one (raising its severity), in one
 * batch; a member's second notice about the same open case is not counted twice. Then mails the
 * reporter a confirmation in their language. False when the target cannot be reported.
 *
 * While the processing of the reporter's notices is suspended (DSA Art. 23, decision 225) the notice
 * is received but set aside, not queued, and the reporter is told so (`heldUntil`); one alleging
 * illegal content (ALWAYS_PROCESSED) is processed all the same.
 */
export async function fileNotice(
  env: Pick<Env, "DB" | "ENVIRONMENT" | "MAIL" | "MAIL_FROM" | "METRICS" | "CHAT_ROOM">,
  brand: { id: number; name: string },
  input: NoticeInput,
  o: { origin: string; now?: number },
): Promise<false | { heldUntil: number | null }> {
  const owner = await targetOwner(env, input.target, input.reporter.id);
  if (!owner || owner.brandId !== brand.id) return false;
  const d1 = env.DB;
  const db = getDb(d1);
  const now = o.now ?? nowS();
  const key = targetKey(input.target);
  const suspension = ALWAYS_PROCESSED.includes(input.category)
    ? null
    : await activeReporterSuspension(d1, input.reporter, now);
  if (suspension) {
    await db.insert(schema.setAsideNotices).values({
      measureId: suspension.id,
      brandId: brand.id,
      targetType: input.target.type,
      targetId: key,
      memberId: owner.memberId,
      reporterId: input.reporter.id,
      reporterEmail: input.reporter.id ? null : input.reporter.email,
      category: input.category,
      explanation: input.explanation.slice(0, EXPLANATION_MAX),
      language: input.language,
      createdAt: now,
    });
    await mailReceived(env, brand, input, "held", o.origin, suspension.endsAt);
    return { heldUntil: suspension.endsAt };
  }
  const severity = severityOf(input.category);
  const { moderationCases: cases, notices } = schema;
  const openCase = and(eq(cases.targetType, input.target.type), eq(cases.targetId, key), eq(cases.status, "open"));
  const [, , notice] = await db.batch([
    db
      .insert(cases)
      .values({
        id: randomId(),
        brandId: brand.id,
        targetType: input.target.type,
        targetId: key,
        memberId: owner.memberId,
        severity,
        openedAt: now,
      })
      .onConflictDoNothing(),
    db
      .update(cases)
      .set({ severity: sql`min(${cases.severity}, ${severity})` })
      .where(openCase),
    // INSERT … SELECT joins the open case the statements above made or found; every column of notices
    // in table order (a null id takes the next rowid).
    db
      .insert(notices)
      .select(sql`SELECT NULL, ${cases.id}, ${input.reporter.id}, ${input.reporter.id ? null : input.reporter.email}, ${input.category},
      ${input.explanation.slice(0, EXPLANATION_MAX)}, ${input.goodFaith ? 1 : 0}, ${input.language}, ${now} FROM ${cases} WHERE ${openCase}`)
      .onConflictDoNothing(),
    // Several reports from different members flag the member (decision 176), in the same batch.
    ...reportsFlagStatements(db, { id: owner.memberId, brandId: brand.id }, now),
  ]);
  // Counted once: a repeated notice of the same reporter is not stored again.
  if ((notice as unknown as D1Result).meta.changes > 0) countEvent(env, "report", { brandId: brand.id });
  await mailReceived(env, brand, input, "received", o.origin, null);
  return { heldUntil: null };
}

/** The reporter's confirmation in their language: received, or received but set aside until `until`. */
async function mailReceived(
  env: Pick<Env, "DB" | "ENVIRONMENT" | "MAIL" | "MAIL_FROM">,
  brand: { id: number; name: string },
  input: NoticeInput,
  kind: "received" | "held",
  origin: string,
  until: number | null,
) {
  const t = await getFixedT(input.language, "safety");
  const vars = {
    brand: brand.name,
    name: input.reporter.name ?? "",
    target: t(`target.${input.target.type}`),
    category: t(`categories.${input.category}`),
    until: until ? decisionDate(input.language, until) : "",
  };
  const { text, html } = renderMail({
    greeting: input.reporter.name ? t("mail.greeting", vars) : t("mail.greetingVisitor", vars),
    body: t(`mail.${kind}.body`, vars),
    action: t(kind === "held" ? "reporter.complainAction" : "mail.received.action", vars),
    link: `${origin}${kind === "held" ? "/complaints" : "/pages/terms"}`,
    footer: [t("mail.footer", vars)],
  });
  await mailerFor(env).send({
    brandId: brand.id,
    to: input.reporter.email,
    subject: t(`mail.${kind}.subject`, vars),
    text,
    html,
    fromName: brand.name,
  });
}

// ---------------------------------------------------------------------------------------------
// Decisions and statements of reasons (DSA Art. 17)

export { DECISION_ACTIONS, type DecisionAction } from "../../db/schema";
/** Sections of the terms a decision can rest on (safety.json rules.*, linked to /pages/terms). */
export const TERMS_RULES = ["age", "consent", "illegal", "fraud", "conduct", "commercial", "identity"] as const;
export type TermsRule = (typeof TERMS_RULES)[number];
/** A ban lasts until this time (year 9999). */
export const BAN_UNTIL = 253_402_300_799;
export const SUSPEND_MAX_DAYS = 365;
const DAY = 86_400;

/** Removed photos of these categories are deleted at once, never held for an appeal (decision 174). */
export const DELETE_AT_ONCE: readonly ReportCategory[] = ["minor", "ncii"];

export type DecisionInput = {
  action: DecisionAction;
  rule: TermsRule | "";
  facts: string;
  days: number | null;
  /** On a profile case, which of its photos a remove_photo removes (a photo case removes its own). */
  photoId?: string;
  /** The facts for the public Transparency Database, without personal data (decision 205). */
  publicFacts?: string;
  /** The legal provision of an illegal-content decision (a LEGAL_GROUNDS key). */
  legalGround?: string;
};

/**
 * Which actions fit which target: a photo removal needs a photo case or a profile case (one of its
 * photos), a text or name reset a profile case, a message removal a message case.
 */
export function actionFits(action: DecisionAction, targetType: "member" | "photo" | "message"): boolean {
  if (action === "remove_photo") return targetType === "photo" || targetType === "member";
  if (action === "remove_profile_text" || action === "reset_name") return targetType === "member";
  if (action === "remove_message") return targetType === "message";
  return true;
}

/** "<conversation>:<seq>", a message case's target. */
export function messageTarget(targetId: string): { conversationId: string; seq: number } | null {
  const m = /^([\w-]{1,64}):(\d{1,9})$/.exec(targetId);
  return m ? { conversationId: m[1]!, seq: Number(m[2]) } : null;
}

/** Signs a decision id for the statement link in the mail (works without logging in, e.g. when banned). */
export async function statementToken(secret: string, decisionId: string): Promise<string> {
  return `${decisionId}.${await hmac(secret, `statement:${decisionId}`)}`;
}
export async function decisionOfToken(secret: string, token: string): Promise<string | null> {
  const [id, sig] = token.split(".");
  if (!id || !sig || !/^[\w-]{1,64}$/.test(id)) return null;
  const expected = await hmac(secret, `statement:${id}`);
  return expected.length === sig.length && expected === sig ? id : null;
}
/** Signs a notice id for its reporter's review link in the outcome mail (decision 219). */
export async function noticeToken(secret: string, noticeId: number): Promise<string> {
  return `${noticeId}.${await hmac(secret, `notice:${noticeId}`)}`;
}
export async function noticeOfToken(secret: string, token: string): Promise<number | null> {
  const [id, sig] = token.split(".");
  if (!id || !sig || !/^\d{1,12}$/.test(id)) return null;
  const expected = await hmac(secret, `notice:${id}`);
  return expected.length === sig.length && expected === sig ? Number(id) : null;
}
async function hmac(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...mac))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

type DecideEnv = Pick<
  Env,
  | "DB"
  | "PHOTOS"
  | "EVIDENCE"
  | "EVIDENCE_RETENTION_DAYS"
  | "DSA_QUEUE"
  | "ENVIRONMENT"
  | "MAIL"
  | "MAIL_FROM"
  | "SESSION_SECRET"
  | "CHAT_ROOM"
  | "MEMBER_HUB"
>;

/**
 * Decides an open case, in one D1 batch guarded on the case still being open (two operators
 * deciding at once: one wins, the other changes nothing): the decision row (the statement of
 * reasons), its effect, and the audit row. A suspension or ban also ends every session of the
 * member and closes their open sockets at once (decision 083) and hides them everywhere
 * (profile status "suspended"). Then the member gets the statement and each reporter the outcome,
 * each in their language. Never automated: only an operator calls this.
 */
export async function decide(
  env: DecideEnv,
  operator: { id: string; role: string },
  caseId: string,
  input: DecisionInput,
  o: { origin: (brandDomain: string) => string; now?: number },
): Promise<{ ok: true; decisionId: string } | { ok: false; error: "not_found" | "closed" | "action" | "gone" }> {
  const now = o.now ?? nowS();
  const db = getDb(env.DB);
  const { moderationCases: cases, users, profiles, photos, sessions, decisions, auditLog } = schema;
  const [c] = await db
    .select({
      c: cases,
      aboutMe: profiles.aboutMe,
      name: profiles.name,
      language: users.language,
      profileStatus: profiles.status,
      suspendedUntil: users.suspendedUntil,
      messagingRestrictedUntil: users.messagingRestrictedUntil,
    })
    .from(cases)
    .innerJoin(users, eq(users.id, cases.memberId))
    .innerJoin(profiles, eq(profiles.userId, cases.memberId))
    .where(eq(cases.id, caseId));
  if (!c) return { ok: false, error: "not_found" };
  if (c.c.status !== "open") return { ok: false, error: "closed" };
  if (!actionFits(input.action, c.c.targetType)) return { ok: false, error: "action" };
  const id = randomId();
  const memberId = c.c.memberId;
  // The content item the decision is about: the photo (the case's, or one of the profile's), the message.
  const photoId = c.c.targetType === "photo" ? c.c.targetId : (input.photoId ?? "");
  if (input.action === "remove_photo" && c.c.targetType === "member") {
    const [own] = await db
      .select({ id: photos.id })
      .from(photos)
      .where(and(eq(photos.id, photoId), eq(photos.userId, memberId)));
    if (!own) return { ok: false, error: "gone" };
  }
  const message = input.action === "remove_message" ? await reportedMessage(env, c.c.targetId, memberId) : null;
  if (input.action === "remove_message" && !message) return { ok: false, error: "gone" };
  const resetTo =
    input.action === "reset_name"
      ? (await getFixedT(memberLanguage(c.language), "safety"))("resetName", { n: 1000 + randomInt(9000) })
      : "";
  // A removed photo waits for the appeal window (decision 174), except minor and non-consensual
  // intimate imagery: the case's severity is its most severe notice, and those are deleted at once.
  const holdPhoto = input.action === "remove_photo" && !DELETE_AT_ONCE.includes(REPORT_CATEGORIES[c.c.severity]!);
  const endsAt =
    input.action === "ban"
      ? BAN_UNTIL
      : hasDays(input.action)
        ? now + Math.min(Math.max(input.days ?? 1, 1), SUSPEND_MAX_DAYS) * DAY
        : null;
  const removed: RemovedContent | Record<string, unknown> | null =
    input.action === "remove_profile_text"
      ? { aboutMe: c.aboutMe }
      : input.action === "reset_name"
        ? { name: c.name, resetTo }
        : input.action === "remove_message"
          ? { message: message! }
          : input.action === "remove_photo"
            ? { photoId, held: holdPhoto }
            : input.action === "suspend" || input.action === "ban"
              ? { profileStatus: c.profileStatus, suspendedUntil: c.suspendedUntil }
              : input.action === "restrict_messaging"
                ? { messagingRestrictedUntil: c.messagingRestrictedUntil }
                : null;
  // Every effect below runs only if this batch's decision row exists, i.e. the case was still open.
  const decided = sql`EXISTS (SELECT 1 FROM ${decisions} WHERE ${decisions.id} = ${id})`;
  const effects =
    input.action === "remove_photo"
      ? [
          ...(holdPhoto
            ? [
                holdPhotoStatement(db, {
                  photoId,
                  memberId,
                  decisionId: id,
                  until: appealDeadline(now),
                  decided,
                }),
              ]
            : []),
          db.delete(photos).where(and(eq(photos.id, photoId), eq(photos.userId, memberId), decided)),
          db
            .update(profiles)
            .set({
              mainPhotoId: sql`(SELECT ${photos.id} FROM ${photos} WHERE ${photos.userId} = ${memberId} AND ${photos.isPrivate} = 0
            ORDER BY ${photos.createdAt}, ${photos}.rowid LIMIT 1)`,
            })
            .where(and(eq(profiles.userId, memberId), eq(profiles.mainPhotoId, photoId), decided)),
        ]
      : input.action === "reset_name"
        ? [
            db
              .update(profiles)
              .set({ name: resetTo })
              .where(and(eq(profiles.userId, memberId), decided)),
          ]
        : input.action === "remove_profile_text"
          ? [
              db
                .update(profiles)
                .set({ aboutMe: "" })
                .where(and(eq(profiles.userId, memberId), decided)),
            ]
          : input.action === "suspend" || input.action === "ban"
            ? [
                db
                  .update(users)
                  .set({ suspendedUntil: sql`max(coalesce(${users.suspendedUntil}, 0), ${endsAt})` })
                  .where(and(eq(users.id, memberId), decided)),
                db
                  .update(profiles)
                  .set({ status: "suspended" })
                  .where(and(eq(profiles.userId, memberId), decided)),
                db.delete(sessions).where(and(eq(sessions.userId, memberId), decided)),
              ]
            : input.action === "restrict_messaging"
              ? [
                  // The member keeps logging in and browsing; the chat's guarded send refuses until then.
                  db
                    .update(users)
                    .set({
                      messagingRestrictedUntil: sql`max(coalesce(${users.messagingRestrictedUntil}, 0), ${endsAt})`,
                    })
                    .where(and(eq(users.id, memberId), decided)),
                ]
              : [];
  // Guarded chain: the case's status guard decides whether anything else happens. The INSERT … SELECTs
  // list every column in table order (a null id takes the next rowid).
  const [closed] = await db.batch([
    db
      .update(cases)
      .set({ status: "closed", closedAt: now })
      .where(and(eq(cases.id, caseId), eq(cases.status, "open"))),
    db.insert(decisions)
      .select(sql`SELECT ${id}, ${caseId}, ${memberId}, ${operator.id}, ${input.action}, ${input.rule}, ${input.facts},
      ${hasDays(input.action) ? input.days : null}, ${endsAt}, ${c.c.flaggedBy ? 1 : 0}, ${removed ? JSON.stringify(removed) : null}, ${now}, NULL,
      ${input.publicFacts ?? ""}, ${input.legalGround ?? ""}
      WHERE changes() = 1`),
    ...effects,
    // The statement goes to the Transparency Database as it is made (decision 218): "no action" is none.
    ...(input.action === "no_action" ? [] : [queueSubmissionStatement(db, id, now, decided)]),
    db.insert(auditLog)
      .select(sql`SELECT NULL, ${now}, ${operator.id}, ${operator.role}, ${`decision.${input.action}`}, 'member', ${memberId},
      ${`${input.rule}: ${input.facts}`.slice(0, 2000)}, ${removed ? JSON.stringify(removed) : null},
      ${JSON.stringify({ case: caseId, decision: id, endsAt })} WHERE ${decided}`),
  ]);
  if ((closed?.meta.changes ?? 0) !== 1) return { ok: false, error: "closed" };
  if (input.action === "remove_photo" && !holdPhoto) {
    // Minor or intimate imagery: kept as evidence for the authorities before the files go (decision 218).
    await preserveEvidence(
      env,
      operator,
      { caseId, decisionId: id, memberId, photoId, category: REPORT_CATEGORIES[c.c.severity]! },
      now,
    );
    await deleteObjects(env.PHOTOS, photoId);
  }
  // The message leaves both members' views in its conversation's object (decision 190).
  if (message) await roomStub(env, message.conversationId).removeMessage(message.conversationId, message.seq, memberId);
  if (input.action === "suspend" || input.action === "ban") await closeRevokedSockets(env, memberId);
  // A restriction or suspension holds from the next send: the member's conversations re-read their rules.
  else if (input.action === "restrict_messaging") await forgetChatRules(env, memberId);
  if (input.action !== "no_action") await enqueueStatement(env, id);
  await mailDecision(env, id, o.origin);
  return { ok: true, decisionId: id };
}

/** The reported message of a message case, if it is still there and `memberId` wrote it. */
async function reportedMessage(
  env: Pick<Env, "CHAT_ROOM">,
  targetId: string,
  memberId: string,
): Promise<NonNullable<RemovedContent["message"]> | null> {
  const t = messageTarget(targetId);
  if (!t) return null;
  const [m] = await roomStub(env, t.conversationId).excerpt(t.conversationId, t.seq, 0);
  if (!m || m.kind === "notice" || m.id !== t.seq || m.senderId !== memberId) return null;
  return {
    conversationId: t.conversationId,
    seq: m.id,
    clientId: m.clientId,
    kind: m.kind,
    body: m.body,
    giftId: m.giftId,
    createdAt: m.createdAt,
  };
}

const randomInt = (below: number) => crypto.getRandomValues(new Uint32Array(1))[0]! % below;

/** Decisions with what their statements show (one query for one decision and for a member's list). */
function statementQuery(d1: D1Database) {
  const { decisions, users, profiles, brands, moderationCases: cases } = schema;
  return getDb(d1)
    .select({
      d: decisions,
      email: users.email,
      language: users.language,
      name: profiles.name,
      brandId: users.brandId,
      brandName: brands.name,
      brandDomain: brands.domain,
      targetType: cases.targetType,
    })
    .from(decisions)
    .innerJoin(users, eq(users.id, decisions.memberId))
    .innerJoin(profiles, eq(profiles.userId, decisions.memberId))
    .innerJoin(brands, eq(brands.id, users.brandId))
    .innerJoin(cases, eq(cases.id, decisions.caseId))
    .$dynamic();
}

/** A decision with what its statement shows. */
export async function statementOf(d1: D1Database, decisionId: string) {
  const [row] = await statementQuery(d1).where(eq(schema.decisions.id, decisionId));
  return row ?? null;
}

/** Every restriction decided about the member, newest first (their account's statements page). */
export function statementsOf(d1: D1Database, memberId: string) {
  const { decisions } = schema;
  return statementQuery(d1)
    .where(and(eq(decisions.memberId, memberId), sql`${decisions.action} != 'no_action'`))
    .orderBy(sql`${decisions.createdAt} DESC`, sql`${decisions}.rowid DESC`)
    .limit(100);
}
export type Statement = NonNullable<Awaited<ReturnType<typeof statementOf>>>;

/** The statement's lines in the member's language (the mail and the pages show the same). */
export function statementLines(t: (key: string, vars?: Record<string, unknown>) => string, s: Statement, lng: string) {
  const date = (at: number) => decisionDate(lng, at);
  const d = s.d;
  // A content decision says which content: the message (its date and words), the names.
  const r = (d.removed ?? {}) as RemovedContent;
  return {
    what: t(`statement.what.${d.action}`, {
      until: d.endsAt ? date(d.endsAt) : "",
      sent: r.message ? date(r.message.createdAt) : "",
      quote: r.message ? clip(r.message.body, 200) : "",
      old: r.name ?? "",
      name: r.resetTo ?? "",
    }),
    facts: d.facts,
    rule: d.rule ? t(`rules.${d.rule}`) : "",
    automated: t(d.automatedDetection ? "statement.automatedYes" : "statement.automatedNo"),
    date: date(d.createdAt),
  };
}

/** The language a member's statements are shown and mailed in: their own, whatever the browser's. */
export const memberLanguage = (language: string): Language =>
  REPORT_LANGS.includes(language as Language) ? (language as Language) : "en";

/**
 * What a statement page shows (the account's list, the ban page, the mailed link): its lines and
 * labels in the member's language and the signed link to the decision, where it can be appealed.
 */
export async function statementView(secret: string, s: Statement) {
  const lng = memberLanguage(s.language);
  const t = await getFixedT(lng, "safety");
  return {
    id: s.d.id,
    lang: lng,
    lines: statementLines(t, s, lng),
    labels: {
      facts: t("statement.facts"),
      rule: t("statement.rule"),
      date: t("statement.date"),
      appeal: t("statement.appeal"),
      appealAction: t("statements.appealLink"),
    },
    href: `/statement/${encodeURIComponent(await statementToken(secret, s.d.id))}`,
  };
}
export type StatementView = Awaited<ReturnType<typeof statementView>>;

/**
 * The ban page's statement (decision 173): a signed token of a ban decision. A member who is logged
 * in only ever sees their own (a token of someone else's decision shows nothing).
 */
export async function banStatement(
  env: Pick<Env, "DB" | "SESSION_SECRET">,
  token: string,
  viewerId: string | null,
): Promise<StatementView | null> {
  const id = await decisionOfToken(env.SESSION_SECRET, token);
  const s = id ? await statementOf(env.DB, id) : null;
  if (!s || s.d.action !== "ban" || (viewerId && viewerId !== s.d.memberId)) return null;
  return statementView(env.SESSION_SECRET, s);
}

async function mailDecision(env: DecideEnv, decisionId: string, originOf: (brandDomain: string) => string) {
  const s = await statementOf(env.DB, decisionId);
  if (!s) return;
  const origin = originOf(s.brandDomain);
  const lng = memberLanguage(s.language);
  const t = await getFixedT(lng, "safety");
  const mailer = mailerFor(env);
  if (s.d.action !== "no_action") {
    const l = statementLines(t, s, lng);
    const link = `${origin}/statement/${encodeURIComponent(await statementToken(env.SESSION_SECRET, decisionId))}`;
    const body = [
      l.what,
      `${t("statement.facts")}: ${l.facts}`,
      `${t("statement.rule")}: ${l.rule} (${origin}/pages/terms)`,
      l.automated,
      `${t("statement.date")}: ${l.date}`,
      t("statement.appeal"),
      // Beyond our own complaint handling: out-of-court dispute settlement (DSA Art. 21) and the courts.
      t("redress"),
    ].join("\n\n");
    const { text, html } = renderMail({
      greeting: t("mail.greeting", { name: s.name }),
      body,
      action: t("statement.appealAction"),
      link,
      footer: [t("statement.footer", { brand: s.brandName })],
    });
    await mailer.send({
      brandId: s.brandId,
      to: s.email,
      subject: t("statement.mailSubject", { brand: s.brandName }),
      text,
      html,
      fromName: s.brandName,
    });
  }
  // Each reporter hears what was decided (not the member's details) and their redress (decision 219):
  // after "no action" a review of it (DSA Art. 20), always out-of-court settlement and the courts.
  const { notices, users } = schema;
  const reporters = await getDb(env.DB)
    .select({
      id: notices.id,
      email: sql<string>`coalesce(${users.email}, ${notices.reporterEmail})`,
      language: notices.language,
    })
    .from(notices)
    .leftJoin(users, eq(users.id, notices.reporterId))
    .where(eq(notices.caseId, s.d.caseId));
  for (const r of reporters) {
    if (!r.email) continue;
    const rt = await getFixedT(memberLanguage(r.language), "safety");
    const vars = { brand: s.brandName, target: rt(`target.${s.targetType}`) };
    const none = s.d.action === "no_action";
    const body = [
      rt(none ? "outcome.none" : "outcome.action", vars),
      rt("outcome.decided", { decision: rt(`outcome.what.${s.d.action}`) }),
      ...(none ? [rt("outcome.reviewOffer")] : []),
      rt("redress"),
    ].join("\n\n");
    const { text, html } = renderMail({
      greeting: rt("mail.greetingVisitor"),
      body,
      action: none ? rt("outcome.reviewAction") : rt("mail.received.action"),
      link: none
        ? `${origin}/report/review/${encodeURIComponent(await noticeToken(env.SESSION_SECRET, r.id))}`
        : `${origin}/pages/terms`,
      footer: [rt("mail.footer", vars)],
    });
    await mailer.send({
      brandId: s.brandId,
      to: r.email,
      subject: rt("outcome.subject", vars),
      text,
      html,
      fromName: s.brandName,
    });
  }
}
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const REPORT_LANGS: readonly Language[] = ["da", "de", "en", "es", "fi", "fr", "it", "nb", "nl", "pl", "sv"];

/** The member's current suspension or ban (its decision), if any: the login shows it instead of logging in. */
export async function activeSuspension(
  d1: D1Database,
  memberId: string,
  now = nowS(),
): Promise<{ id: string; ban: boolean } | null> {
  const { decisions } = schema;
  const [row] = await getDb(d1)
    .select({ id: decisions.id, ban: sql<number>`${decisions.action} = 'ban'` })
    .from(decisions)
    .where(
      and(
        eq(decisions.memberId, memberId),
        sql`${decisions.action} IN ('suspend', 'ban')`,
        sql`${decisions.endsAt} > ${now}`,
        isNull(decisions.reversedAt),
      ),
    )
    .orderBy(sql`${decisions.endsAt} DESC`)
    .limit(1);
  return row ? { id: row.id, ban: !!row.ban } : null;
}

/**
 * The one rule that ends restrictions whose time has passed (decision 173), for one member (their
 * login) or for everyone (the hourly cron, app/lib/scheduled.server.ts): a profile still "suspended"
 * whose suspension has ended is shown again (active; disabled while the e-mail is unconfirmed), and
 * an ended messaging restriction is cleared. Guarded on the current state, so a second run, or a run
 * racing a login, changes nothing; a ban (BAN_UNTIL) never ends here.
 */
export async function liftEndedRestrictions(d1: D1Database, now = nowS(), memberId?: string) {
  const db = getDb(d1);
  const { profiles, users } = schema;
  const [shown, cleared] = await db.batch([
    db
      .update(profiles)
      .set({
        status: sql`CASE WHEN (SELECT ${users.status} FROM ${users} WHERE ${users.id} = ${profiles.userId}) = 'not_confirmed'
          THEN 'disabled' ELSE 'active' END`,
      })
      .where(
        and(
          eq(profiles.status, "suspended"),
          memberId ? eq(profiles.userId, memberId) : undefined,
          sql`${profiles.userId} IN (SELECT ${users.id} FROM ${users} WHERE ${users.suspendedUntil} <= ${now} AND ${users.deletedAt} IS NULL)`,
        ),
      ),
    db
      .update(users)
      .set({ messagingRestrictedUntil: null })
      .where(and(lte(users.messagingRestrictedUntil, now), memberId ? eq(users.id, memberId) : undefined)),
  ]);
  return { shown: shown.meta.changes ?? 0, cleared: cleared.meta.changes ?? 0 };
}
