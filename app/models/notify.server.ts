/**
 * Notifications (docs/product/states.md §4 and docs/product/limits.md §9): every type of NOTIFICATION_TYPES is sent by e-mail and, where
 * it fits, by Web Push. Events reach the senders through a Cloudflare Queue (NOTIFY_QUEUE), so a slow
 * mail or push service never slows a page or the chat; the Cron Trigger schedules digests and reminders.
 *
 * Never sent when the member switched that type off (notifications_disabled; a bounce, spam complaint
 * or list-unsubscribe switches off only the e-mail), is invisible or deleted, or blocked the sender (or
 * was blocked); the chat does not even enqueue a message for a member online in that conversation.
 * Each send claims a key in notification_log first, per channel, so a retried batch or a second cron
 * run never sends the same thing twice, and a failed channel is retried without repeating the other.
 */
import type { TFunction } from "i18next";
import { and, between, desc, eq, gt, isNull, lt, max, ne, notExists, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { lazy } from "~/lib/lazy";
import { getDb, schema, type Db } from "../../db/client";
import { NOTIFICATION_TYPES, type Language } from "~/lib/constants";
import { isDeployed, type Env } from "~/lib/env";
import { getFixedT, isLanguage } from "~/lib/i18n.server";
import { nowS } from "~/lib/dates";
import { hmacHex } from "~/lib/hmac.server";
import { copyOf } from "./brand.server";
import { fictionalIcon, fictionalLabel } from "~/lib/fictional";
import { safeRedirect } from "~/lib/request.server";
import { mailerFor, renderMail, type Mailer } from "./mail.server";
import { dropSubscription, webPushSender, type PushPayload, type PushSender } from "./push.server";
import type { CampaignType, DigestType, NotifyEvent, NotifyMessage, QueuedMessage } from "./notify-events";
import { enqueueAll, eventFields } from "./notify-queue";
import { logError } from "~/lib/log.server";
import { shownPhotoSql } from "./photos.server";
import {
  brandLanguage,
  campaignRef,
  countAudience,
  countOutcome,
  runCampaignPage,
  startPaging,
} from "./campaign-send.server";

export type { NotifyEvent, NotifyMessage };
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type NotifyEnv = Pick<
  Env,
  | "DB"
  | "ENVIRONMENT"
  | "MAIL"
  | "MAIL_FROM"
  | "NOTIFY_QUEUE"
  | "SESSION_SECRET"
  | "VAPID_SUBJECT"
  | "VAPID_PUBLIC_KEY"
  | "VAPID_PRIVATE_KEY"
>;

/** The senders; tests hand in a push service of their own. */
export type Senders = { mailer: Mailer; push: PushSender };
export const sendersFor = (env: NotifyEnv): Senders => ({ mailer: mailerFor(env), push: webPushSender(env) });

// ---------------------------------------------------------------------------------------------
// Consuming

/** Deliveries of one message: the first and wrangler.toml's max_retries = 5 (the last one counts a campaign's failure). */
export const NOTIFY_MAX_ATTEMPTS = 6;

/** Retry delays grow with each attempt (the queue's max_retries bounds them). */
export const retryDelay = (attempts: number) => Math.min(600, 10 * 2 ** Math.max(0, attempts - 1));

/** The queue consumer: each message handled on its own; a failed one is retried later, the others acked. */
export async function handleNotifyBatch(
  batch: MessageBatch<NotifyMessage | QueuedMessage>,
  env: NotifyEnv,
  senders = sendersFor(env),
) {
  for (const message of batch.messages) {
    try {
      const body = message.body;
      if (body.kind === "campaign_page") await runCampaignPage(env, body.campaignId);
      else await deliver(env, body, senders, message.attempts);
      message.ack();
    } catch (e) {
      logError("notify.delivery_failed", e, { ...eventFields(message.body), attempts: message.attempts });
      message.retry({ delaySeconds: retryDelay(message.attempts) });
    }
  }
}

/**
 * Everything deliver needs about the member and the event, in one read: the member, brand and
 * sender, which types are off, and whether the event still holds (blocked, read, like taken back).
 * In db.batch D1 answers rows keyed by column name, so the three `name` columns carry their own.
 */
function factsQuery(db: Db, userId: string, senderId: string | null, conversationId: string | null, seq: number) {
  const {
    users: u,
    brands: b,
    profiles: p,
    notificationsDisabled: nd,
    blocks,
    conversationMembers: cm,
    likes,
  } = schema;
  const s = alias(p, "s");
  return db
    .select({
      id: u.id,
      email: u.email,
      language: u.language,
      invisible: u.invisible,
      deleted_at: u.deletedAt,
      brand_id: u.brandId,
      domain: b.domain,
      mail_name: b.mailName,
      brand_name: sql<string>`${b.name}`.as("brand_name"),
      brand_lang: sql<string>`substr(${b.domainLanguage}, 1, 2)`.as("brand_lang"),
      fictional_icon: b.fictionalIcon,
      fictional_singular: b.fictionalSingular,
      runs_team_profiles: b.runsTeamProfiles,
      disabled: sql<
        string | null
      >`(SELECT group_concat(${nd.type} || ':' || ${nd.reason}) FROM ${nd} WHERE ${nd.userId} = ${u.id})`,
      member_name: p.name,
      country: p.country,
      region: p.region,
      gender: p.gender,
      sender_name: sql<string | null>`${s.name}`.as("sender_name"),
      // A team-run sender is named with its mark in every notification (decision 179).
      sender_fictional: sql<number | null>`${s.fictional}`.as("sender_fictional"),
      // The sender's photo only as others may see it (decision 175).
      sender_photo: sql<string | null>`${sql.raw(shownPhotoSql('"s"."main_photo_id"'))}`.as("sender_photo"),
      // The inner users shadows the outer one: this asks about the sender.
      sender_gone: sql<number>`(${senderId} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${u} WHERE ${u.id} = ${senderId} AND ${u.deletedAt} IS NULL))`,
      blocked: sql<number>`EXISTS (SELECT 1 FROM ${blocks} WHERE (${blocks.blockerId} = ${u.id} AND ${blocks.blockedId} = ${senderId})
        OR (${blocks.blockerId} = ${senderId} AND ${blocks.blockedId} = ${u.id}))`,
      unread: sql<
        number | null
      >`(SELECT ${cm.unread} FROM ${cm} WHERE ${cm.conversationId} = ${conversationId} AND ${cm.userId} = ${u.id})`,
      // A conversation numbers its messages from 1 (its object keeps them, decision 190): 1 is the first.
      first_message: sql<number>`${seq} = 1`,
      // Each like's source (null: none): an automatic like ('auto') was nobody's choice (decision 179).
      like_source: sql<
        string | null
      >`(SELECT ${likes.source} FROM ${likes} WHERE ${likes.likerId} = ${senderId} AND ${likes.likedId} = ${u.id})`,
      back_source: sql<
        string | null
      >`(SELECT ${likes.source} FROM ${likes} WHERE ${likes.likerId} = ${u.id} AND ${likes.likedId} = ${senderId})`,
    })
    .from(u)
    .innerJoin(b, eq(b.id, u.brandId))
    .leftJoin(p, eq(p.userId, u.id))
    .leftJoin(s, sql`${s.userId} = ${senderId}`)
    .where(eq(u.id, userId));
}
type Facts = Awaited<ReturnType<typeof factsQuery>>[number];

/** What one event means for one member: the type, a once-only key, where it leads, and the words. */
type Plan = {
  type: NotificationType;
  userId: string;
  senderId: string | null;
  conversationId: string | null;
  key: string;
  path: string;
  text: "new_conversation" | "new_message" | "like" | "suggested" | "match" | DigestType | CampaignType;
  push: boolean;
  tag?: string;
};

function planOf(e: NotifyEvent): Plan {
  switch (e.kind) {
    case "message": {
      const type = "new_message";
      return {
        type,
        text: type,
        userId: e.receiverId,
        senderId: e.senderId,
        conversationId: e.conversationId,
        key: `${type}:${e.conversationId}:${e.messageId}`,
        path: `/chats/${e.conversationId}`,
        push: true,
        tag: `chat-${e.conversationId}`,
      };
    }
    case "like":
      return {
        type: "like",
        text: "like",
        userId: e.likedId,
        senderId: e.likerId,
        conversationId: null,
        key: `like:${e.likerId}`,
        path: `/likes/m/${e.likerId}`,
        push: true,
        tag: `like-${e.likerId}`,
      };
    case "digest":
      return {
        type: e.type,
        text: e.type,
        userId: e.userId,
        senderId: null,
        conversationId: null,
        key: `${e.type}:${e.ref}`,
        path: e.type === "unread_reminder" ? "/chats" : "/members",
        push: e.type === "unread_reminder",
      };
    case "campaign":
      return {
        type: e.type,
        text: e.type,
        userId: e.userId,
        senderId: null,
        conversationId: null,
        key: `${e.type}:${e.ref}`,
        path: e.path,
        // A console campaign (its own texts) also goes to the member's devices; the script's stays mail only.
        push: false,
      };
  }
}

/**
 * A like says what happened (decision 179): an automatic like is a suggestion, never the other
 * member's choice; a like back is a match only when the member's own like was their choice (an automatic
 * like made in their name chose nothing). Null: taken back meanwhile. Pure, see tests/unit/notify.test.ts.
 */
export function likePlan(plan: Plan, f: Pick<Facts, "like_source" | "back_source">, likerId: string): Plan | null {
  if (!f.like_source) return null;
  if (f.like_source === "auto") return { ...plan, text: "suggested", key: `${plan.key}:suggested` };
  if (f.back_source && f.back_source !== "auto") {
    return { ...plan, text: "match", key: `${plan.key}:match`, path: `/members/${likerId}` };
  }
  return plan;
}

/** Why nothing is sent to this member for this plan (null: send). Pure, see tests/unit/notify.test.ts. */
export function refusal(f: Facts | null, plan: Pick<Plan, "senderId" | "conversationId">): string | null {
  if (!f || f.deleted_at) return "gone";
  if (f.invisible) return "invisible";
  if (plan.senderId && (f.blocked || f.sender_gone)) return "blocked";
  // Read meanwhile (the member opened the chat before the batch ran): one mail per conversation until read.
  if (plan.conversationId && !f.unread) return "read";
  return null;
}

/** The reasons a type is off for this member: push stops only when the member chose so. */
export function channelsOf(disabled: string | null, type: NotificationType) {
  const reasons = (disabled ?? "")
    .split(",")
    .filter((r) => r.startsWith(`${type}:`))
    .map((r) => r.slice(type.length + 1));
  return { mail: reasons.length === 0, push: !reasons.some((r) => r === "user" || r === "list_unsubscribe") };
}

/** Sends what one event means; throws when a channel failed (the queue retries; sent channels stay sent). */
export async function deliver(
  env: NotifyEnv,
  event: NotifyEvent,
  senders: Senders,
  attempts = 1,
): Promise<{ mail: boolean; push: number }> {
  let plan = planOf(event);
  const db = env.DB;
  const orm = getDb(db);
  const ps = schema.pushSubscriptions;
  const campaignId = event.kind === "campaign" ? (event.campaignId ?? null) : null;
  const [factsRows, subs, campaignRows] = await orm.batch([
    factsQuery(orm, plan.userId, plan.senderId, plan.conversationId, event.kind === "message" ? event.messageId : 0),
    orm
      .select({ id: ps.id, endpoint: ps.endpoint, p256dh: ps.p256dh, auth: ps.auth })
      .from(ps)
      .where(eq(ps.userId, plan.userId))
      .orderBy(ps.id),
    campaignTextsQuery(orm, campaignId ?? 0),
  ]);
  const f = factsRows[0] ?? null;
  const texts = campaignRows[0] ?? null;
  if (texts && hasTexts(texts)) plan = { ...plan, push: true };
  const sent = { mail: false, push: 0 };
  const skip = async () => {
    if (campaignId) await countOutcome(db, campaignId, "skipped");
    return sent;
  };
  if (refusal(f, plan) || !f) return skip();
  if (event.kind === "message" && f.first_message) {
    plan = {
      ...plan,
      type: "new_conversation",
      text: "new_conversation",
      key: plan.key.replace("new_message", "new_conversation"),
    };
  }
  if (event.kind === "like") {
    const liked = likePlan(plan, f, event.likerId);
    if (!liked) return sent;
    plan = liked;
  }
  const channels = channelsOf(f.disabled, plan.type);
  const lng: Language = isLanguage(f.language) ? f.language : "en";
  const t = await getFixedT(lng, "notify", copyOf({ runsTeamProfiles: f.runs_team_profiles }));
  const content = await contentOf(env, plan, f, t, texts);
  if (!content) return sent;
  if (campaignId && !channels.mail) await countOutcome(db, campaignId, "skipped");
  let failed = false;

  if (channels.mail && (await claim(db, f.id, `${plan.key}:mail`))) {
    try {
      await senders.mailer.send(await notificationMail(env, t, plan.type, plan.path, f, content));
      sent.mail = true;
      if (campaignId) await countOutcome(db, campaignId, "sent");
    } catch {
      await release(db, f.id, `${plan.key}:mail`);
      failed = true;
      if (campaignId && attempts >= NOTIFY_MAX_ATTEMPTS) await countOutcome(db, campaignId, "failed");
    }
  }
  if (plan.push && channels.push && subs.length) {
    const payload: PushPayload = {
      title: content.subject,
      body: content.body,
      url: plan.path,
      tag: plan.tag,
      icon: f.sender_photo ? `/photos/${f.sender_photo}/thumb` : "/icons/icon-192.png",
    };
    for (const sub of subs) {
      const key = `${plan.key}:push:${sub.id}`;
      if (!(await claim(db, f.id, key))) continue;
      const outcome = await senders.push.send(sub, payload).catch(() => "failed" as const);
      if (outcome === "sent") sent.push += 1;
      else if (outcome === "gone") await dropSubscription(db, sub, f.id);
      else {
        await release(db, f.id, key);
        failed = true;
      }
    }
  }
  if (failed) throw new Error("notification send failed; retry");
  return sent;
}

const claim = async (db: D1Database, userId: string, key: string) =>
  (await getDb(db).insert(schema.notificationLog).values({ userId, key }).onConflictDoNothing()).meta.changes === 1;
const release = (db: D1Database, userId: string, key: string) => {
  const log = schema.notificationLog;
  return getDb(db)
    .delete(log)
    .where(and(eq(log.userId, userId), eq(log.key, key)));
};

type Content = { subject: string; body: string; action: string; note?: string };

/**
 * The sender's name as notifications write it: a team-run profile carries its mark (the brand's icon and
 * name for such profiles, decision 179) in the subject, the push and the body; the mail adds the warning.
 */
export function senderNameOf(
  f: Pick<Facts, "sender_name" | "sender_fictional" | "fictional_icon" | "fictional_singular" | "brand_lang">,
  lng: Language,
  t: TFunction,
) {
  const name = f.sender_name ?? "";
  if (!f.sender_fictional) return { name };
  const label = fictionalLabel(
    { singular: f.fictional_singular, lang: f.brand_lang },
    lng,
    t("common:fictional.label", { lng }),
  );
  return {
    name: t("fictionalName", { name, icon: fictionalIcon(f.fictional_icon), label }),
    note: t("common:fictional.warning", { lng }),
  };
}

/** A console campaign's own texts and the brand's language (their fallback); no row for other events. */
function campaignTextsQuery(db: Db, campaignId: number) {
  const { campaigns: c, brands: b } = schema;
  return db
    .select({ title: c.title, body: c.body, fallback: b.domainLanguage })
    .from(c)
    .innerJoin(b, eq(b.id, c.brandId))
    .where(eq(c.id, campaignId));
}
type CampaignTexts = Awaited<ReturnType<typeof campaignTextsQuery>>[number];
const hasTexts = (c: Pick<CampaignTexts, "title">) => Object.values(c.title).some(Boolean);

/** A campaign's text in a language: the member's, else the brand's, else the first one written. */
export function textIn(texts: Partial<Record<string, string>>, lng: string, fallback: string): string {
  return texts[lng] || texts[fallback] || Object.values(texts).find(Boolean) || "";
}

/** The words of a notification in the member's language; null when a digest has nothing to say. */
async function contentOf(
  env: NotifyEnv,
  plan: Plan,
  f: Facts,
  t: TFunction,
  texts: CampaignTexts | null = null,
): Promise<Content | null> {
  const sender = senderNameOf(f, isLanguage(f.language) ? f.language : "en", t);
  const vars: Record<string, string> = {
    brand: f.mail_name || f.brand_name,
    name: sender.name,
    member: f.member_name ?? "",
  };
  if (texts && hasTexts(texts)) {
    const lng = f.language;
    return {
      subject: textIn(texts.title, lng, brandLanguage(texts.fallback)),
      body: textIn(texts.body, lng, brandLanguage(texts.fallback)),
      action: t(`types.${plan.text}.action`, vars),
    };
  }
  if (plan.text === "new_members") {
    const names = await newMembersNear(env.DB, f);
    if (names.length === 0) return null;
    vars.names = names.join(", ");
  }
  const k = `types.${plan.text}`;
  return {
    subject: t(`${k}.subject`, vars),
    body: t(`${k}.body`, vars),
    action: t(`${k}.action`, vars),
    note: sender.note,
  };
}

/** Up to five members who joined this week in the member's region (else country), of the other gender. */
async function newMembersNear(db: D1Database, f: Facts): Promise<string[]> {
  const { users: u, profiles: p } = schema;
  const results = await getDb(db)
    .select({ name: p.name })
    .from(u)
    .innerJoin(p, eq(p.userId, u.id))
    .where(
      and(
        eq(u.brandId, f.brand_id),
        gt(u.createdAt, nowS() - 7 * 86_400),
        isNull(u.deletedAt),
        ne(u.id, f.id),
        eq(p.status, "active"),
        sql`${p.country} = ${f.country}`,
        sql`(${f.region} IS NULL OR ${p.region} = ${f.region})`,
        sql`${p.gender} != ${f.gender}`,
      ),
    )
    .orderBy(desc(u.createdAt))
    .limit(5);
  return results.map((r) => r.name);
}

// ---------------------------------------------------------------------------------------------
// Links and mails

/** Every mailed link is built from the brand's configured domain (docs/architecture/security.md §5), never the request's Host. */
export function siteOrigin(env: Pick<Env, "ENVIRONMENT">, domain: string): string {
  return isDeployed(env) ? `https://${domain}` : `http://${domain}:8787`;
}

async function notificationMail(
  env: NotifyEnv,
  t: TFunction,
  type: NotificationType,
  path: string,
  f: Facts,
  c: Content,
) {
  const origin = siteOrigin(env, f.domain);
  const unsubscribe = `${origin}/unsubscribe?${new URLSearchParams({ u: f.id, t: type, s: await unsubscribeSignature(env, f.id, type) })}`;
  const brand = f.mail_name || f.brand_name;
  const mail = renderMail({
    greeting: t("mail.greeting", { member: f.member_name ?? "" }),
    body: c.body,
    note: c.note,
    action: c.action,
    link: `${origin}${path}`,
    footer: [
      t("mail.why", { brand, type: t(`typeNames.${type}`) }),
      `${t("mail.unsubscribe")}: ${unsubscribe}`,
      `${t("mail.settings")}: ${origin}/notifications`,
    ],
  });
  return {
    brandId: f.brand_id,
    to: f.email,
    subject: c.subject,
    text: mail.text,
    html: mail.html,
    fromName: brand,
    // RFC 2369 and RFC 8058: the mail client's unsubscribe button posts "List-Unsubscribe=One-Click" to this URL.
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

// ---------------------------------------------------------------------------------------------
// Unsubscribe (RFC 8058), bounces and complaints

/** Constant-time comparison of two hex strings. */
function sameHex(a: string, b: string) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The unsubscribe link's signature: only a mail we sent can switch a member's type off. */
export const unsubscribeSignature = (env: Pick<Env, "SESSION_SECRET">, userId: string, type: string) =>
  hmacHex(env.SESSION_SECRET, `unsubscribe:${userId}:${type}`).then((h) => h.slice(0, 32));

export const unsubscribeSchema = lazy(() =>
  z.object({
    u: z.string().min(1).max(64),
    t: z.enum(NOTIFICATION_TYPES),
    s: z.string().regex(/^[0-9a-f]{32}$/),
  }),
);

/** Checks an unsubscribe link; answers the member and type it names, or null. */
export async function checkUnsubscribe(env: Pick<Env, "SESSION_SECRET">, params: unknown) {
  const parsed = unsubscribeSchema().safeParse(params);
  if (!parsed.success) return null;
  const { u, t, s } = parsed.data;
  return sameHex(s, await unsubscribeSignature(env, u, t)) ? { userId: u, type: t } : null;
}

/** One-click unsubscribe: the type's e-mails stop (recorded as list_unsubscribe; the member can switch it on again). */
export async function unsubscribe(db: D1Database, userId: string, type: NotificationType) {
  const { notificationsDisabled: nd, users } = schema;
  // Only for a member who still exists (a link may outlive its account).
  await getDb(db)
    .insert(nd)
    .select(
      sql`SELECT ${userId}, ${type}, 'list_unsubscribe', unixepoch() WHERE EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${userId})`,
    )
    .onConflictDoNothing();
}

export const mailEventSchema = lazy(() =>
  z.object({
    type: z.enum(["bounce", "spam_complaint"]),
    email: z.string().trim().toLowerCase().email().max(254),
  }),
);

/** The provider's webhook signs the raw body: X-Signature: sha256=<hex HMAC-SHA256 with MAIL_WEBHOOK_SECRET>. */
export async function verifyWebhook(env: Pick<Env, "MAIL_WEBHOOK_SECRET">, body: string, signature: string | null) {
  const given = /^sha256=([0-9a-f]{64})$/.exec(signature ?? "")?.[1];
  return !!given && sameHex(given, await hmacHex(env.MAIL_WEBHOOK_SECRET, body));
}

/**
 * A bounce or spam complaint for an address: every e-mail type of every account with that address is
 * switched off, with the reason (docs/product/states.md §4); the member sees the disabled-notifications alert.
 * Answers how many accounts it touched.
 */
export async function recordMailEvent(
  db: D1Database,
  email: string,
  reason: "bounce" | "spam_complaint",
): Promise<number> {
  const orm = getDb(db);
  const { users, notificationsDisabled: nd } = schema;
  const results = await orm
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  const [first, ...rest] = results.flatMap((u) =>
    NOTIFICATION_TYPES.map((type) =>
      orm
        .insert(nd)
        .values({ userId: u.id, type, reason })
        .onConflictDoUpdate({
          target: [nd.userId, nd.type],
          set: { reason: sql`excluded.reason` },
          setWhere: eq(nd.reason, "user"),
        }),
    ),
  );
  if (!first) return 0;
  await orm.batch([first, ...rest]);
  return results.length;
}

// ---------------------------------------------------------------------------------------------
// Scheduling (the Cron Trigger) and campaigns (operators)

const DAY = 86_400;
/** A member counts as inactive after this long without a visit; reminded at most once a month. */
export const INACTIVE_AFTER_S = 14 * DAY;
const REMINDERS_UNTIL_S = 180 * DAY;

/** ISO week of a date, e.g. "2026-W48": the once-a-week key of the new-members digest. */
export function isoWeek(d: Date): string {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const day = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const year = t.getUTCFullYear();
  const week = Math.ceil(((t.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return `${year}-W${String(week).padStart(2, "0")}`;
}

/** The member (users in the outer query) has not switched this type off, for any reason. */
const typeOff = (d1: D1Database, type: string) => {
  const nd = schema.notificationsDisabled;
  return notExists(
    getDb(d1)
      .select({ one: sql`1` })
      .from(nd)
      .where(and(eq(nd.userId, schema.users.id), eq(nd.type, type))),
  );
};

/** Members with messages unread for a day (one reminder per new unread state). */
export async function scheduleUnreadReminders(env: NotifyEnv, now = nowS()) {
  const { conversationMembers: cm, users: u, notificationsDisabled: nd } = schema;
  const results = await getDb(env.DB)
    .select({ userId: cm.userId, at: max(cm.lastActivityAt) })
    .from(cm)
    .innerJoin(u, eq(u.id, cm.userId))
    .where(
      and(
        gt(cm.unread, 0),
        between(cm.lastActivityAt, now - 2 * DAY, now - DAY),
        isNull(u.deletedAt),
        notExists(
          getDb(env.DB)
            .select({ one: sql`1` })
            .from(nd)
            .where(and(eq(nd.userId, u.id), eq(nd.type, "unread_reminder"), eq(nd.reason, "user"))),
        ),
      ),
    )
    .groupBy(cm.userId);
  await enqueueAll(
    env,
    results.map((r) => ({ kind: "digest", type: "unread_reminder", userId: r.userId, ref: `u${r.at}` })),
  );
  return results.length;
}

/** The weekly digest of new members near each member who wants it (the week is the once-only key). */
export async function scheduleNewMembersDigest(env: NotifyEnv, now = new Date()) {
  const ref = isoWeek(now);
  const { users: u } = schema;
  const results = await getDb(env.DB)
    .select({ id: u.id })
    .from(u)
    .where(and(isNull(u.deletedAt), eq(u.status, "confirmed"), eq(u.invisible, false), typeOff(env.DB, "new_members")));
  await enqueueAll(
    env,
    results.map((r) => ({ kind: "digest", type: "new_members", userId: r.id, ref })),
  );
  return results.length;
}

/** Members who have not visited for INACTIVE_AFTER_S (up to half a year): a reminder, once a month. */
export async function scheduleInactiveReminders(env: NotifyEnv, now = new Date()) {
  const s = Math.floor(now.getTime() / 1000);
  const ref = now.toISOString().slice(0, 7);
  const { users: u } = schema;
  const results = await getDb(env.DB)
    .select({ id: u.id })
    .from(u)
    .where(
      and(
        isNull(u.deletedAt),
        between(u.lastSeenAt, s - REMINDERS_UNTIL_S, s - INACTIVE_AFTER_S),
        typeOff(env.DB, "reminders"),
      ),
    );
  await enqueueAll(
    env,
    results.map((r) => ({ kind: "digest", type: "reminders", userId: r.id, ref })),
  );
  return results.length;
}

/** The cron's part: hourly unread reminders; daily inactive reminders; Mondays the new-members digest. */
export async function runNotificationSchedules(env: NotifyEnv, cron: string | null, when = new Date()) {
  await scheduleUnreadReminders(env, Math.floor(when.getTime() / 1000));
  if (cron === "5 * * * *") return; // The hourly cron (HOURLY_CRON in app/lib/scheduled.server.ts).
  await scheduleInactiveReminders(env, when);
  if (when.getUTCDay() === 1) await scheduleNewMembersDigest(env, when);
  await getDb(env.DB)
    .delete(schema.notificationLog)
    .where(lt(schema.notificationLog.sentAt, Math.floor(when.getTime() / 1000) - 200 * DAY));
}

/** A campaign's brand id: a JSON number or a form's digits (never true, "1e3" or " 3"). */
const brandIdSchema = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^[1-9][0-9]{0,8}$/)
      .transform(Number),
  ])
  .pipe(z.number().int().positive().max(999_999_999));

export const campaignSchema = lazy(() =>
  z.object({
    type: z.enum(["promotions", "news"]),
    brandId: brandIdSchema,
    /** The campaign's name: its once-only key (the same ref never mails a member twice). */
    ref: z.string().regex(/^[a-z0-9-]{1,64}$/),
    /** Where the mail leads: a path on the member's own site (safeRedirect's rules: no other host, ever). */
    path: z
      .string()
      .max(512)
      .default("/")
      .transform((p, ctx) => {
        const safe = safeRedirect(p, "");
        if (!safe) ctx.addIssue({ code: z.ZodIssueCode.custom, message: "not a same-origin path" });
        return safe;
      }),
  }),
);
export type Campaign = z.infer<ReturnType<typeof campaignSchema>>;

/**
 * A script's promotion or news (POST /api/admin/campaign) for every activated, visible member of a
 * brand who has that type on: a campaign row with the script's ref and the standard texts, sent by
 * the console's paging (decision 183). Answers how many will be mailed (the audience count taken
 * before paging starts), null for an unknown brand. The consumer checks again when it sends and
 * claims `<type>:<ref>:mail` per member, so sending the same ref twice mails nobody twice.
 */
export async function sendCampaign(env: NotifyEnv, c: Campaign): Promise<number | null> {
  const db = getDb(env.DB);
  const { brands, campaigns } = schema;
  const [brand] = await db.select({ id: brands.id }).from(brands).where(eq(brands.id, c.brandId));
  if (!brand) return null;
  const audience = {
    brandId: c.brandId,
    type: c.type,
    language: null,
    country: null,
    plan: "all",
    activeDays: null,
  } as const;
  const { eligible } = await countAudience(env.DB, audience);
  const [row] = await db
    .insert(campaigns)
    .values({ ...audience, ref: c.ref, path: c.path, title: {}, body: {}, status: "sending", createdBy: "api" })
    .returning({ id: campaigns.id });
  await startPaging(env, row!.id);
  return eligible;
}

// ---------------------------------------------------------------------------------------------
// The console's campaign preview and test mail (decision 183)

export type CampaignPreview = {
  memberId: string;
  language: string;
  /** Why this member would get nothing (null: they would get it). */
  refused: string | null;
  mail: { to: string; subject: string; text: string; html: string };
  push: { title: string; body: string; url: string } | null;
};

/**
 * The mail and the push a member of the campaign's brand (by id or e-mail) would get, in their
 * language, without sending anything or claiming a key. Null when no such member.
 */
export async function previewCampaign(
  env: NotifyEnv,
  campaignId: number,
  who: string,
): Promise<CampaignPreview | null> {
  const orm = getDb(env.DB);
  const { campaigns: C, users: u } = schema;
  const [c] = await orm.select().from(C).where(eq(C.id, campaignId));
  if (!c) return null;
  const q = who.trim();
  const [member] = await orm
    .select({ id: u.id })
    .from(u)
    .where(and(eq(u.brandId, c.brandId), sql`(${u.id} = ${q} OR ${u.email} = ${q.toLowerCase()})`))
    .limit(1);
  if (!member) return null;
  const [[f], [texts]] = await orm.batch([factsQuery(orm, member.id, null, null, 0), campaignTextsQuery(orm, c.id)]);
  if (!f) return null;
  const event = { kind: "campaign", type: c.type, userId: f.id, ref: campaignRef(c), path: c.path } as const;
  const plan = planOf(event);
  const lng: Language = isLanguage(f.language) ? f.language : "en";
  const t = await getFixedT(lng, "notify", copyOf({ runsTeamProfiles: f.runs_team_profiles }));
  const content = (await contentOf(env, plan, f, t, texts ?? null))!;
  const mail = await notificationMail(env, t, plan.type, plan.path, f, content);
  const channels = channelsOf(f.disabled, plan.type);
  return {
    memberId: f.id,
    language: lng,
    refused: refusal(f, plan) ?? (channels.mail ? null : "switched off"),
    mail: { to: mail.to, subject: mail.subject, text: mail.text, html: mail.html },
    push: texts && hasTexts(texts) ? { title: content.subject, body: content.body, url: plan.path } : null,
  };
}

/**
 * "Send a test to me": the campaign's mail in the brand's language to the operator's own address,
 * through the normal mail transport (the outbox in development). Nothing is claimed or counted.
 */
export async function sendCampaignTest(
  env: NotifyEnv,
  campaignId: number,
  to: { email: string; name: string },
  senders: Pick<Senders, "mailer"> = { mailer: mailerFor(env) },
): Promise<boolean> {
  const orm = getDb(env.DB);
  const { campaigns: C, brands: b } = schema;
  const [row] = await orm
    .select({
      c: C,
      domain: b.domain,
      mail_name: b.mailName,
      brand_name: sql<string>`${b.name}`.as("brand_name"),
      lng: b.domainLanguage,
      runsTeamProfiles: b.runsTeamProfiles,
    })
    .from(C)
    .innerJoin(b, eq(b.id, C.brandId))
    .where(eq(C.id, campaignId));
  if (!row) return false;
  const [texts] = await campaignTextsQuery(orm, campaignId);
  const own = brandLanguage(row.lng);
  const lng: Language = isLanguage(own) ? own : "en";
  // The operator stands in for a member of the brand; their unsubscribe link names no member.
  const f = {
    id: "test",
    email: to.email,
    language: lng,
    brand_id: row.c.brandId,
    domain: row.domain,
    mail_name: row.mail_name,
    brand_name: row.brand_name,
    member_name: to.name,
    sender_name: null,
    runs_team_profiles: row.runsTeamProfiles,
  } as unknown as Facts;
  const plan = planOf({
    kind: "campaign",
    type: row.c.type,
    userId: "test",
    ref: campaignRef(row.c),
    path: row.c.path,
  });
  const t = await getFixedT(lng, "notify", copyOf({ runsTeamProfiles: row.runsTeamProfiles }));
  const content = (await contentOf(env, plan, f, t, texts ?? null))!;
  const mail = await notificationMail(env, t, plan.type, plan.path, f, content);
  await senders.mailer.send({ ...mail, subject: `[Test] ${mail.subject}` });
  return true;
}
