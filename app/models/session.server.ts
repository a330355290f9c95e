/**
 * Server-side sessions. The auth cookie holds a signed random id; the sessions table holds its hash,
 * so a session can be revoked (logout, password reset, deletion) and a leaked table opens nothing.
 * One query resolves the session, the member and the counts the top bar shows.
 */
import { createCookie, redirect } from "@remix-run/cloudflare";
import { and, eq, gt, isNull, lt, ne, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { getDb, schema, type Db } from "../../db/client";
import { AUTH_COOKIE_DAYS, MARKETING_TYPES } from "~/lib/constants";
import { readSignedCookie } from "~/lib/cookies.server";
import type { Env } from "~/lib/env";
import { randomId, sha256 } from "~/lib/password";
import { hubStub, roomStub } from "~/chat/stubs";
import { shownBalance } from "../wallet/wallet.server";
import { getBrandByHost } from "./brand.server";
import { ageGateRefusal } from "./age-check.server";
import { resolveCountry } from "~/lib/request.server";

const DAY = 86_400;

/**
 * What the session functions read: the bindings, the execution context when there is one, and the
 * request's `cf` (its country, for the age gate). A route's load context is one; the socket upgrade
 * passes `{ env, cf }` (no cast needed).
 */
export type SessionContext = {
  env: Pick<Env, "DB" | "SESSION_SECRET" | "CHAT_ROOM" | "MEMBER_HUB" | "ENVIRONMENT">;
  ctx?: Pick<ExecutionContext, "waitUntil">;
  cf?: { country?: string } | undefined;
};

function authCookie(context: SessionContext) {
  return createCookie("sid", {
    httpOnly: true,
    secure: true,
    sameSite: "lax",
    path: "/",
    maxAge: AUTH_COOKIE_DAYS * DAY,
    secrets: [context.env.SESSION_SECRET],
  });
}

export interface Member {
  id: string;
  email: string;
  name: string;
  paidUser: boolean;
  credits: number;
  language: string;
  status: "not_confirmed" | "confirmed";
  profileStatus: "active" | "disabled";
  /** The profile's country: what the member's messages cost depends on it (pricesFor). */
  country: string;
  invisible: boolean;
  mainPhotoId: string | null;
  createdAt: number;
  pushSubscribed: boolean;
  unreadMessages: number;
  newLikes: number;
  notificationsDisabled: string[];
  /** A moderator's "restrict messaging" (decision 173): no sending until then (seconds), or null. */
  messagingRestrictedUntil: number | null;
  /** Until when the member's proof of 18+ is honoured (seconds), or null: read here so the age gate costs no read (decision 185). */
  ageProofUntil: number | null;
  /** What search's and the swipe game's defaults need (searcherOf in search.server.ts), read here so they cost no round trip. */
  profile: { gender: string; sexuality: string; dateOfBirth: string; lat: number | null; lon: number | null };
}

// Marketing types a member simply did not opt in to are not "disabled notifications" (no alert for them).
const MARKETING_SQL = `(${MARKETING_TYPES.map((t) => `'${t}'`).join(", ")})`;
/**
 * The member of a session with the top bar's counts, one read a request. `onScreen`: the conversation the page
 * shows, whose unread messages the badge leaves out. Same-named columns aliased (decision 070).
 */
function memberQuery(db: Db, idHash: string, now: number, onScreen: string) {
  const { sessions: s, users: u, profiles: p } = schema;
  return db
    .select({
      id: u.id,
      email: u.email,
      paid_user: u.paidUser,
      credits: u.credits,
      language: u.language,
      status: sql<Member["status"]>`${u.status}`.as("status"),
      invisible: u.invisible,
      created_at: u.createdAt,
      push_subscribed: u.pushSubscribed,
      last_seen_at: u.lastSeenAt,
      messaging_restricted_until: u.messagingRestrictedUntil,
      name: p.name,
      profile_status: sql<Member["profileStatus"]>`${p.status}`.as("profile_status"),
      main_photo_id: p.mainPhotoId,
      country: p.country,
      gender: p.gender,
      sexuality: p.sexuality,
      date_of_birth: p.dateOfBirth,
      lat: p.lat,
      lon: p.lon,
      unread: sql<number>`(SELECT COALESCE(SUM(cm.unread), 0) FROM conversation_members cm
         WHERE cm.user_id = ${u.id} AND cm.hidden_at IS NULL AND cm.conversation_id != ${onScreen})`.as("unread"),
      // An automatic like is a suggestion, never a new like (decision 214), whatever its like_new says.
      new_likes:
        sql<number>`(SELECT COUNT(*) FROM likes l WHERE l.liked_id = ${u.id} AND l.like_new = 1 AND l.source != 'auto')`.as(
          "new_likes",
        ),
      disabled: sql<
        string | null
      >`(SELECT group_concat(nd.type) FROM notifications_disabled nd WHERE nd.user_id = ${u.id}
         AND NOT (nd.reason = 'user' AND nd.type IN ${sql.raw(MARKETING_SQL)}))`.as("disabled"),
      age_proof_until: sql<number | null>`(SELECT ap.valid_until FROM age_proofs ap WHERE ap.subject = ${u.id})`.as(
        "age_proof_until",
      ),
    })
    .from(s)
    .innerJoin(u, eq(u.id, s.userId))
    .innerJoin(p, eq(p.userId, u.id))
    .where(and(eq(s.idHash, idHash), gt(s.expiresAt, now), isNull(u.deletedAt)));
}

type MemberRow = NonNullable<Awaited<ReturnType<ReturnType<typeof memberQuery>["get"]>>>;

function toMember(r: MemberRow): Member {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    paidUser: !!r.paid_user,
    credits: r.credits,
    language: r.language,
    status: r.status,
    profileStatus: r.profile_status,
    country: r.country,
    invisible: !!r.invisible,
    mainPhotoId: r.main_photo_id,
    createdAt: r.created_at,
    pushSubscribed: !!r.push_subscribed,
    unreadMessages: r.unread,
    newLikes: r.new_likes,
    notificationsDisabled: r.disabled ? r.disabled.split(",") : [],
    messagingRestrictedUntil: r.messaging_restricted_until,
    ageProofUntil: r.age_proof_until,
    profile: { gender: r.gender, sexuality: r.sexuality, dateOfBirth: r.date_of_birth, lat: r.lat, lon: r.lon },
  };
}

async function sessionIdOf(request: Request, context: SessionContext): Promise<string | null> {
  const value = await readSignedCookie(request, authCookie(context));
  return typeof value === "string" ? value : null;
}

const ONLINE_REFRESH_S = 60;
// The root and the route loaders of one request share the load context: look the member up once.
const perRequest = new WeakMap<object, Promise<{ member: Member | null; refusal: Response | null }>>();

/**
 * The logged-in member, or null for a visitor (or an expired/revoked session). Also keeps
 * last_seen_at (online status) fresh, at most one write a minute, after the response.
 *
 * The age gate holds here (decision 197): on a gated path of a brand that asks this visitor, a
 * member (or visitor) without a valid proof gets the gate's answer thrown, whichever loader, action,
 * API endpoint or socket asked — a redirect to /age-check, or 403 for an API call or a socket.
 */
export async function getMember(request: Request, context: SessionContext): Promise<Member | null> {
  let entry = perRequest.get(context);
  if (!entry) {
    entry = memberAndGate(request, context);
    perRequest.set(context, entry);
  }
  const { member, refusal } = await entry;
  // Each caller throws its own copy: the root and a route loader may both reach here.
  if (refusal) throw refusal.clone();
  return member;
}

async function memberAndGate(request: Request, context: SessionContext) {
  const [member, brand] = await Promise.all([
    lookupMember(request, context),
    getBrandByHost(context.env, request.headers.get("Host") ?? new URL(request.url).host),
  ]);
  const refusal = await ageGateRefusal(request, context.env, {
    brand,
    member,
    country: resolveCountry(request, context),
  });
  return { member, refusal };
}

/**
 * The conversation the request shows (/chats/{id}, also its single-fetch `.data` revalidation): the
 * member is reading it, so the Messages badge does not count it (the page marks it read).
 */
function conversationOnScreen(request: Request): string {
  const m = /^\/chats\/([^/]+?)(?:\.data)?\/?$/.exec(new URL(request.url).pathname);
  if (!m) return "";
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return "";
  }
}

async function lookupMember(request: Request, context: SessionContext): Promise<Member | null> {
  const sid = await sessionIdOf(request, context);
  if (!sid) return null;
  const now = Math.floor(Date.now() / 1000);
  const row = await memberQuery(getDb(context.env.DB), await sha256(sid), now, conversationOnScreen(request)).get();
  if (!row) return null;
  if (row.last_seen_at < now - ONLINE_REFRESH_S) {
    context.ctx?.waitUntil(
      getDb(context.env.DB)
        .update(schema.users)
        .set({ lastSeenAt: now })
        .where(eq(schema.users.id, row.id))
        .then(() => undefined),
    );
  }
  const member = toMember(row);
  // The balance the header, the shop and the chat show comes from the member's wallet, the truth
  // (decision 189): D1's copy of a chat spend lags by seconds. Unreachable, the copy is shown.
  member.credits = await shownBalance(context.env, row.id, row.credits);
  return member;
}

/** The page went hidden (beacon): the member counts as offline from now on. */
export async function markOffline(context: SessionContext, memberId: string) {
  const offline = Math.floor(Date.now() / 1000) - 10 * 60;
  const { users } = schema;
  await getDb(context.env.DB)
    .update(users)
    .set({ lastSeenAt: offline })
    .where(and(eq(users.id, memberId), gt(users.lastSeenAt, offline)));
}

/** For pages behind login: visitors go to /login and come back afterwards. */
export async function requireMember(request: Request, context: SessionContext): Promise<Member> {
  const member = await getMember(request, context);
  if (!member) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return member;
}

/** Starts a session; returns the Set-Cookie header value. */
export async function createSession(context: SessionContext, userId: string, userAgent = ""): Promise<string> {
  const sid = randomId(32);
  const now = Math.floor(Date.now() / 1000);
  await getDb(context.env.DB)
    .insert(schema.sessions)
    .values({
      idHash: await sha256(sid),
      userId,
      createdAt: now,
      expiresAt: now + AUTH_COOKIE_DAYS * DAY,
      userAgent: userAgent.slice(0, 200),
    });
  return authCookie(context).serialize(sid);
}

/** Ends this request's session; returns the Set-Cookie header that clears the cookie. */
export async function destroySession(request: Request, context: SessionContext): Promise<string> {
  const sid = await sessionIdOf(request, context);
  if (sid) {
    const hash = await sha256(sid);
    const { sessions } = schema;
    const [gone] = await getDb(context.env.DB)
      .delete(sessions)
      .where(eq(sessions.idHash, hash))
      .returning({ userId: sessions.userId });
    if (gone) await closeRevokedSockets(context.env, gone.userId);
  }
  return authCookie(context).serialize("", { maxAge: 0 });
}

/** Which of these session hashes still belong to a live session (sockets check theirs against it). */
export async function liveSessionHashes(db: D1Database, hashes: string[]): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const { sessions } = schema;
  // One bound JSON list, however many sockets (D1 binds at most 100 values).
  const results = await getDb(db)
    .select({ idHash: sessions.idHash })
    .from(sessions)
    .where(
      and(
        sql`${sessions.idHash} IN (SELECT value FROM json_each(${JSON.stringify(hashes)}))`,
        gt(sessions.expiresAt, Math.floor(Date.now() / 1000)),
      ),
    );
  return new Set(results.map((r) => r.idHash));
}

/**
 * After sessions of a member were revoked: every object holding a socket of theirs (their hub and
 * each of their conversations) closes the sockets whose session is gone, at once (decision 083).
 */
export async function closeRevokedSockets(
  env: Pick<Env, "DB" | "CHAT_ROOM" | "MEMBER_HUB">,
  memberId: string,
): Promise<void> {
  const cm = schema.conversationMembers;
  const results = await getDb(env.DB)
    .select({ conversationId: cm.conversationId })
    .from(cm)
    .where(eq(cm.userId, memberId));
  await Promise.allSettled([
    hubStub(env, memberId).closeRevoked(),
    ...results.map((r) => roomStub(env, r.conversationId).closeRevoked(memberId)),
  ]);
}

/** Revokes every session of a member (password reset, deletion), optionally keeping the current one. */
export function revokeSessionsStatement(db: Db, userId: string, exceptHash?: string) {
  const { sessions } = schema;
  return db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), exceptHash ? ne(sessions.idHash, exceptHash) : undefined));
}

/**
 * Ends every session of a member and closes their sockets at once (support in the console, decision
 * 177); `extra` joins the batch (the audit row). Returns how many sessions ended.
 */
export async function endAllSessions(
  env: Pick<Env, "DB" | "CHAT_ROOM" | "MEMBER_HUB">,
  userId: string,
  extra: BatchItem<"sqlite">[] = [],
): Promise<number> {
  const db = getDb(env.DB);
  const [ended] = await db.batch([revokeSessionsStatement(db, userId), ...extra]);
  await closeRevokedSockets(env, userId);
  return ended.meta.changes ?? 0;
}

/** The daily purge: sessions past their expiry. */
export async function purgeExpiredSessions(d1: D1Database, now: number) {
  await getDb(d1).delete(schema.sessions).where(lt(schema.sessions.expiresAt, now));
}

export async function currentSessionHash(request: Request, context: SessionContext): Promise<string | null> {
  const sid = await sessionIdOf(request, context);
  return sid ? sha256(sid) : null;
}
