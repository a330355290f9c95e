/**
 * Scam and spam signals (decision 176): automated rules that open a case about a
 * member, or add to their open one, and record which rule fired. A signal NEVER restricts anyone:
 * no ban, suspension, removal or hold comes from here; an operator decides in the console, and a
 * decision on a flagged case says automated means detected it (decisions.automated_detection).
 *
 * Where they run, off the send path: the chat room checks a sent message after answering
 * (ctx.waitUntil, app/chat/room.ts); sign-up and notices add their flag statements to the batch
 * they write anyway (no extra round trip); the sign-up's list of disposable domains is in
 * disposable.server.ts, out of the chat room's bundle.
 */
import { and, desc, eq, gte, sql, type SQL } from "drizzle-orm";
import { getDb, schema, type Db } from "../../db/client";
import { REPORT_CATEGORIES, type FlagRule, type ReportCategory } from "../../db/schema";
import { nowS } from "~/lib/dates";
import type { Env } from "~/lib/env";
import { roomStub } from "~/chat/stubs";
import { randomId } from "~/lib/password";

export { FLAG_RULES, type FlagRule } from "../../db/schema";

/** Every threshold of the signals, in one place. */
export const SIGNALS = {
  /** An account younger than this is "new" for the burst rule. */
  newAccountHours: 24,
  /** A new account writing to this many different members within burstMinutes… */
  burstMembers: 5,
  burstMinutes: 10,
  /** The same text (at least sameTextMinChars long) to this many members within sameTextHours. */
  sameTextMembers: 5,
  sameTextHours: 24,
  sameTextMinChars: 20,
  /** "The first messages of a conversation": its messages up to this number (either side's). */
  firstMessages: 5,
  /** Reports about one member by this many different members within reportsDays. */
  reportsMembers: 3,
  reportsDays: 30,
} as const;

/** The category a rule's case is queued as (its severity), when the rule opens it. */
const RULE_CATEGORY: Record<Exclude<FlagRule, "repeated_reports">, ReportCategory> = {
  new_account_burst: "spam",
  same_text: "spam",
  contact_details: "spam",
  payment_request: "scam",
  disposable_email: "fake",
};
export const severityOfRule = (rule: Exclude<FlagRule, "repeated_reports">) =>
  REPORT_CATEGORIES.indexOf(RULE_CATEGORY[rule]);

// ---------------------------------------------------------------------------------------------
// Text rules (pure)

/** Lower case, accents off, the Nordic and Polish letters NFKD keeps, so one list serves 11 languages. */
function fold(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/ø/g, "o")
    .replace(/æ/g, "ae")
    .replace(/ß/g, "ss")
    .replace(/ł/g, "l");
}

/** Payment words in the site's languages (folded); a word boundary on both sides. */
export const PAYMENT_TERMS = [
  // Everywhere
  "iban",
  "paypal",
  "western union",
  "moneygram",
  "gift card",
  "giftcard",
  "itunes card",
  "steam card",
  "google play card",
  "amazon card",
  "paysafecard",
  "bitcoin",
  "btc",
  "crypto",
  "usdt",
  "ethereum",
  "revolut",
  "skrill",
  "cashapp",
  "cash app",
  "venmo",
  "bank transfer",
  "wire transfer",
  "send money",
  // de
  "geschenkkarte",
  "gutschein",
  "uberweisung",
  "krypto",
  // fr
  "carte cadeau",
  "virement",
  "mandat cash",
  // es
  "tarjeta regalo",
  "transferencia",
  "cripto",
  // it
  "carta regalo",
  "buono regalo",
  "bonifico",
  "ricarica",
  // pl
  "karta podarunkowa",
  "przelew",
  // nl
  "cadeaukaart",
  "cadeaubon",
  "overboeking",
  "tikkie",
  // sv, da, nb, fi
  "presentkort",
  "gavekort",
  "lahjakortti",
  "tilisiirto",
  "overforing",
  "mobilepay",
  "vipps",
  "swish",
] as const;
const PAYMENT_RE = new RegExp(`(?:^|[^\\p{L}\\p{N}])(${PAYMENT_TERMS.join("|")})(?=$|[^\\p{L}\\p{N}])`, "u");
const IBAN_CANDIDATE = /\b[a-z]{2}\d{2}(?:[ ]?[a-z0-9]){11,30}\b/gi;

/**
 * An IBAN's ISO 13616 check (mod 97 = 1). Here rather than ibantools: the chat room's Durable Object
 * is bundled apart from the Remix build, so every library this file imports would ship twice.
 */
function ibanChecks(candidate: string): boolean {
  const iban = candidate.replace(/ /g, "").toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  let rest = 0;
  for (const ch of iban.slice(4) + iban.slice(0, 4)) {
    const code = ch.charCodeAt(0);
    const digits = code >= 65 ? String(code - 55) : ch;
    for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

/** The payment request a text makes, if any: an IBAN that passes its check or one of PAYMENT_TERMS. */
export function paymentIn(text: string): string | null {
  if ((text.match(IBAN_CANDIDATE) ?? []).some(ibanChecks)) return "iban";
  return PAYMENT_RE.exec(fold(text))?.[1] ?? null;
}

const EMAIL_RE = /[a-z0-9._%+-]+\s*(?:@|\(at\)|\[at\])\s*[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/i;
const LINK_RE =
  /\bhttps?:\/\/|\bwww\.|\b[a-z0-9-]{2,}\.(?:com|net|org|info|io|me|ly|link|xyz|site|online|app|ru|cc|gg)\b/i;
const MESSENGER_RE = /(?:^|[^a-z])(t\.me|wa\.me|telegram|whatsapp|snapchat|kik)(?=$|[^a-z])/i;
/** Eight digits or more, with the separators people type (+31 6 12 34 56 78, 0612-345678). */
const PHONE_RE = /(?:\+|\b00)?\d(?:[ ./()-]{0,2}\d){7,}/g;
const DATE_RE = /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/;

/** The contact detail a text gives, if any: "email", "phone", "link" or "messenger". */
export function contactIn(text: string): "email" | "phone" | "link" | "messenger" | null {
  if (EMAIL_RE.test(text)) return "email";
  if ((text.match(PHONE_RE) ?? []).some((m) => !DATE_RE.test(m.trim()))) return "phone";
  if (LINK_RE.test(text)) return "link";
  if (MESSENGER_RE.test(text)) return "messenger";
  return null;
}

// ---------------------------------------------------------------------------------------------
// Flags

export type Flag = { rule: FlagRule; detail: string };

/**
 * The statements that put a flag on the member's open profile case (opening it if there is none),
 * for the caller's batch: the case (its `flagged_by` is the first rule that fired), its severity
 * raised to the rule's, and the flag row (once per rule and case). `when`, if given, guards all
 * three (a condition evaluated in the batch, e.g. a count of reports). Nothing here restricts.
 */
export function flagStatements(
  db: Db,
  f: Flag & { brandId: number; memberId: string; now: number; severity: number | SQL; when?: SQL },
) {
  const { moderationCases: cases, caseFlags } = schema;
  const when = f.when ?? sql`1`;
  const openCase = and(eq(cases.targetType, "member"), eq(cases.targetId, f.memberId), eq(cases.status, "open"));
  return [
    // Every column in table order; the partial unique index (one open case per target) makes a second one a no-op.
    db
      .insert(cases)
      .select(sql`SELECT ${randomId()}, ${f.brandId}, 'member', ${f.memberId}, ${f.memberId}, ${f.severity}, 'open',
        ${f.rule}, ${f.now}, NULL, NULL WHERE ${when}`)
      .onConflictDoNothing(),
    db
      .update(cases)
      .set({
        severity: sql`min(${cases.severity}, ${f.severity})`,
        flaggedBy: sql`coalesce(${cases.flaggedBy}, ${f.rule})`,
      })
      .where(and(openCase, when)),
    db
      .insert(caseFlags)
      .select(
        sql`SELECT NULL, ${cases.id}, ${f.rule}, ${f.detail.slice(0, 200)}, ${f.now} FROM ${cases} WHERE ${openCase} AND ${when}`,
      )
      .onConflictDoNothing(),
  ] as const;
}

/** Flags a member for each of `flags`, in one batch. */
export async function flagMember(d1: D1Database, member: { id: string; brandId: number }, flags: Flag[], now = nowS()) {
  if (flags.length === 0) return;
  const db = getDb(d1);
  const [first, ...rest] = flags.flatMap((f) =>
    flagStatements(db, {
      ...f,
      brandId: member.brandId,
      memberId: member.id,
      now,
      severity: f.rule === "repeated_reports" ? REPORT_CATEGORIES.indexOf("other") : severityOfRule(f.rule),
    }),
  );
  await db.batch([first!, ...rest]);
}

/**
 * Several reports from different members: for a notice's batch, after its notice row. The member's
 * notices by distinct members in the last reportsDays reach reportsMembers → a flag on the member's
 * case, queued as the most severe of their open cases.
 */
export function reportsFlagStatements(db: Db, member: { id: string; brandId: number }, now: number) {
  const { moderationCases: cases, notices } = schema;
  const reporters = sql`(SELECT count(DISTINCT ${notices.reporterId}) FROM ${notices}
    JOIN ${cases} ON ${cases.id} = ${notices.caseId}
    WHERE ${cases.memberId} = ${member.id} AND ${notices.reporterId} IS NOT NULL AND ${notices.createdAt} >= ${now - SIGNALS.reportsDays * 86_400})`;
  return flagStatements(db, {
    rule: "repeated_reports",
    detail: `${SIGNALS.reportsMembers}+ members in ${SIGNALS.reportsDays} days`,
    brandId: member.brandId,
    memberId: member.id,
    now,
    severity: sql`coalesce((SELECT min(${cases.severity}) FROM ${cases} WHERE ${cases.memberId} = ${member.id} AND ${cases.status} = 'open'), ${REPORT_CATEGORIES.indexOf("other")})`,
    when: sql`${reporters} >= ${SIGNALS.reportsMembers}`,
  });
}

export type SentMessage = {
  senderId: string;
  conversationId: string;
  /** The message's number in its conversation. */
  seq: number;
  kind: "text" | "gift";
  body: string;
  createdAt: number;
};

/** The most conversations of the sender one check asks about (the most recently active). */
const OPENER_CONVERSATIONS = 200;

/**
 * Checks a message that was just stored (called by the chat room after it answered, never on the
 * send path). Only a conversation's first SIGNALS.firstMessages messages are looked at, so a long
 * conversation costs nothing. The sender's conversations active in the window come from D1's
 * overview (conversation_members_user index); their first messages from each conversation's object,
 * which keeps them (decision 190). No row written unless a rule fires.
 */
export async function checkMessage(
  env: Pick<Env, "DB" | "CHAT_ROOM">,
  m: SentMessage,
  now = m.createdAt,
): Promise<Flag[]> {
  if (m.kind !== "text" || m.seq > SIGNALS.firstMessages) return [];
  const d1 = env.DB;
  const flags: Flag[] = [];
  const contact = contactIn(m.body);
  if (contact) flags.push({ rule: "contact_details", detail: contact });
  const payment = paymentIn(m.body);
  if (payment) flags.push({ rule: "payment_request", detail: payment });
  const db = getDb(d1);
  const { users, conversationMembers: cm } = schema;
  const burstSince = now - SIGNALS.burstMinutes * 60;
  const sameSince = now - SIGNALS.sameTextHours * 3600;
  const [[sender], active] = await db.batch([
    db.select({ createdAt: users.createdAt, brandId: users.brandId }).from(users).where(eq(users.id, m.senderId)),
    db
      .select({ id: cm.conversationId })
      .from(cm)
      .where(and(eq(cm.userId, m.senderId), gte(cm.lastActivityAt, Math.min(burstSince, sameSince))))
      .orderBy(desc(cm.lastActivityAt))
      .limit(OPENER_CONVERSATIONS),
  ]);
  if (!sender) return [];
  // This message's own conversation counts too, even before the room's coalesced overview reached D1.
  const ids = new Set([...active.map((r) => r.id), m.conversationId]);
  const openers = await Promise.all(
    [...ids].map((id) => roomStub(env, id).openers(id, m.senderId, SIGNALS.firstMessages)),
  );
  const sameText = m.body.length >= SIGNALS.sameTextMinChars;
  /** How many of the sender's conversations got one of their first messages from the sender since `since` (of this body). */
  const conversationsWith = (since: number, body: string | null) => ({
    n: openers.filter((list) => list.some((o) => o.createdAt >= since && (body === null || o.body === body))).length,
  });
  const burst = conversationsWith(burstSince, null);
  const same = conversationsWith(sameSince, sameText ? m.body : "\u0000");
  const isNew = now - sender.createdAt < SIGNALS.newAccountHours * 3600;
  if (isNew && (burst?.n ?? 0) >= SIGNALS.burstMembers)
    flags.push({ rule: "new_account_burst", detail: `${burst!.n} members in ${SIGNALS.burstMinutes} min` });
  if (sameText && (same?.n ?? 0) >= SIGNALS.sameTextMembers)
    flags.push({ rule: "same_text", detail: `${same!.n} members in ${SIGNALS.sameTextHours} h` });
  await flagMember(d1, { id: m.senderId, brandId: sender.brandId }, flags, now);
  return flags;
}
