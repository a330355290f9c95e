/** Accounts: the current member as /api/user.php answers it, and the GDPR export. */
import type { Member } from "../session.server";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Env } from "~/lib/env";
import { getDb, schema } from "../../../db/client";
import { getTableColumns, eq, sql, or } from "drizzle-orm";
import { messagesSentBy } from "../chat.server";
import { walletStatement } from "../../wallet/wallet.server";

// ---------------------------------------------------------------------------------------------
// The current member as /api/user.php answers it, and the GDPR export

export function userJson(m: Member) {
  return {
    id: m.id,
    email: m.email,
    paid_user: m.paidUser,
    credits: m.credits,
    language: m.language,
    status: m.status,
    invisible: m.invisible,
    notifications_disabled: m.notificationsDisabled,
    created_at: m.createdAt,
    profile: {
      id: m.id,
      name: m.name,
      status: m.profileStatus,
      main_image: m.mainPhotoId ? { id: m.mainPhotoId } : null,
    },
  };
}

/** Columns under their stored names: the export shows what is stored, as it is named in the database. */
function stored(columns: Record<string, AnySQLiteColumn>): Record<string, AnySQLiteColumn> {
  return Object.fromEntries(Object.values(columns).map((c) => [c.name, c]));
}

/** Everything stored about a member (GDPR right of access), minus the password hash. */
export async function exportMemberData(env: Pick<Env, "DB" | "CHAT_ROOM" | "MEMBER_HUB">, userId: string) {
  const db = getDb(env.DB);
  const s = schema;
  const { passwordHash: _secret, ...userColumns } = getTableColumns(s.users);
  const [
    user,
    profile,
    interests,
    photos,
    likesGiven,
    likesReceived,
    blocks,
    conversations,
    payments,
    notifications,
    discounts,
    ageProofs,
    ageRequests,
  ] = await db.batch([
    db.select(stored(userColumns)).from(s.users).where(eq(s.users.id, userId)),
    db
      .select(stored(getTableColumns(s.profiles)))
      .from(s.profiles)
      .where(eq(s.profiles.userId, userId)),
    db
      .select({ interestId: s.profileInterests.interestId })
      .from(s.profileInterests)
      .where(eq(s.profileInterests.userId, userId)),
    db
      .select(
        stored({ a: s.photos.id, b: s.photos.isPrivate, c: s.photos.width, d: s.photos.height, e: s.photos.createdAt }),
      )
      .from(s.photos)
      .where(eq(s.photos.userId, userId)),
    db
      .select(stored({ a: s.likes.likedId, b: s.likes.source, c: s.likes.createdAt }))
      .from(s.likes)
      .where(eq(s.likes.likerId, userId)),
    db
      .select(stored({ a: s.likes.likerId, b: s.likes.createdAt }))
      .from(s.likes)
      .where(eq(s.likes.likedId, userId)),
    db
      .select(stored({ a: s.blocks.blockedId, b: s.blocks.createdAt }))
      .from(s.blocks)
      .where(eq(s.blocks.blockerId, userId)),
    db
      .select({
        ...stored({
          a: s.conversations.id,
          b: s.conversations.memberA,
          c: s.conversations.memberB,
          d: s.conversations.createdAt,
        }),
        // Said plainly (decision 201): the other side was a profile run by the brand's team.
        with_team_run_profile: sql<number>`EXISTS (SELECT 1 FROM ${s.profiles} WHERE ${s.profiles.fictional} = 1
          AND ${s.profiles.userId} IN (${s.conversations.memberA}, ${s.conversations.memberB}))`.mapWith(Boolean),
      })
      .from(s.conversations)
      .where(or(eq(s.conversations.memberA, userId), eq(s.conversations.memberB, userId))),
    db
      .select(
        stored({
          a: s.payments.id,
          b: s.payments.packageId,
          c: s.payments.credits,
          d: s.payments.amountCents,
          e: s.payments.currency,
          f: s.payments.method,
          g: s.payments.status,
          h: s.payments.createdAt,
        }),
      )
      .from(s.payments)
      .where(eq(s.payments.userId, userId)),
    db
      .select(
        stored({
          a: s.notificationsDisabled.type,
          b: s.notificationsDisabled.reason,
          c: s.notificationsDisabled.createdAt,
        }),
      )
      .from(s.notificationsDisabled)
      .where(eq(s.notificationsDisabled.userId, userId)),
    db
      .select(stored({ a: s.discountCodes.code, b: s.discountCodes.valuePercentage, c: s.discountCodes.expires }))
      .from(s.discountCodes)
      .where(eq(s.discountCodes.userId, userId)),
    // The proof of age (decision 185: a method and two dates) and the member's open or settled
    // requests (kept ten minutes); a request's nonce and reader key are secrets of the check, not data about them.
    db
      .select(stored({ a: s.ageProofs.method, b: s.ageProofs.provedAt, c: s.ageProofs.validUntil }))
      .from(s.ageProofs)
      .where(eq(s.ageProofs.subject, userId)),
    db
      .select(
        stored({
          a: s.ageRequests.country,
          b: s.ageRequests.next,
          c: s.ageRequests.status,
          d: s.ageRequests.reason,
          e: s.ageRequests.createdAt,
          f: s.ageRequests.expiresAt,
        }),
      )
      .from(s.ageRequests)
      .where(eq(s.ageRequests.subject, userId)),
  ]);
  // The member's messages live in their conversations' objects (decision 190).
  const messages = (await messagesSentBy(env, userId)).map((m) => ({
    conversation_id: m.conversationId,
    kind: m.kind,
    body: m.body,
    gift_id: m.giftId,
    credits_charged: m.creditsCharged,
    created_at: m.createdAt,
  }));
  // The ledger and the balance live in the member's wallet (decision 189), under the names they had in
  // D1: users.credits is the wallet's copy, seconds behind a chat spend, so the export shows the wallet's,
  // read with the ledger in one call so the balance is the one its ledger explains (decision 239).
  const { rows, balance } = await walletStatement(env, userId, { oldestFirst: true });
  const ledger = rows.map((r) => ({
    delta: r.delta,
    reason: r.reason,
    ref_id: r.refId,
    created_at: r.createdAt,
  }));
  return {
    exported_at: new Date().toISOString(),
    user: user[0] ? { ...user[0], credits: balance } : {},
    profile: profile[0] ?? null,
    interests: interests.map((r) => r.interestId),
    photos,
    likes_given: likesGiven,
    likes_received: likesReceived,
    blocks,
    conversations,
    messages_sent: messages,
    credit_ledger: ledger,
    payments,
    notifications_disabled: notifications,
    discount_codes: discounts,
    age_proofs: ageProofs,
    age_requests: ageRequests,
  };
}
