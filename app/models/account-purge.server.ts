/**
 * The purge of deleted accounts, kept apart from accounts/deletion.server.ts so the Cron Trigger (bundled by
 * wrangler with entry.worker.ts) pulls in no translations or other route code.
 */
import { purgeAgeSubjects } from "./age-purge.server";
import { and, inArray, isNotNull, lte } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import { REACTIVATION_DAYS } from "../lib/constants";
import type { Env } from "../lib/env";
import { PHOTO_VARIANTS, photoKey } from "./photos.server";
import { wipeConversationsOf } from "./chat.server";
import { purgeWallet } from "../wallet/wallet.server";

const DAY = 86_400;

/**
 * The purge (daily Cron Trigger): accounts deleted more than REACTIVATION_DAYS ago are removed with
 * everything that references them (ON DELETE CASCADE) and their photo files. Returns how many.
 */
export async function purgeDeletedAccounts(
  env: Pick<Env, "DB" | "PHOTOS" | "CHAT_ROOM" | "MEMBER_HUB">,
  now = Math.floor(Date.now() / 1000),
): Promise<number> {
  const cutoff = now - REACTIVATION_DAYS * DAY;
  const db = getDb(env.DB);
  const { users, photos, heldPhotos } = schema;
  let purged = 0;
  for (;;) {
    const rows = await db
      .select({ id: users.id })
      .from(users)
      .where(and(isNotNull(users.deletedAt), lte(users.deletedAt, cutoff)))
      .limit(50);
    if (rows.length === 0) return purged;
    const ids = rows.map((r) => r.id);
    // Photos held for an appeal (decision 174) have files too.
    const files = await db
      .select({ id: photos.id })
      .from(photos)
      .where(inArray(photos.userId, ids))
      .union(db.select({ id: heldPhotos.id }).from(heldPhotos).where(inArray(heldPhotos.userId, ids)));
    const keys = files.flatMap((p) => PHOTO_VARIANTS.map((v) => photoKey(p.id, v)));
    for (let i = 0; i < keys.length; i += 1000) await env.PHOTOS?.delete(keys.slice(i, i + 1000));
    // Their conversations' messages live in the conversations' objects (decision 190): wiped first.
    await wipeConversationsOf(env, ids);
    // Their wallets (balance and ledger, decision 189) go with them, before the row a wallet would import from.
    await Promise.all(ids.map((id) => purgeWallet(env, id)));
    // ON DELETE CASCADE removes profile, photos, likes, conversations, ledger, codes, tokens.
    await db.delete(users).where(inArray(users.id, ids));
    // Again after the rows are gone: a wallet touched in between (it would import the rows) is emptied too.
    await Promise.all(ids.map((id) => purgeWallet(env, id)));
    // A proof of age names its member by id without a foreign key (a visitor's names a cookie hash).
    await purgeAgeSubjects(env.DB, ids);
    purged += ids.length;
  }
}
