/**
 * The purge of deleted accounts, kept apart from accounts.server.ts so the Cron Trigger (bundled by
 * wrangler with entry.worker.ts) pulls in no translations or other route code.
 */
import { REACTIVATION_DAYS } from "../lib/constants";
import type { Env } from "../lib/env";
import { PHOTO_VARIANTS, photoKey } from "./photos.server";

const DAY = 86_400;

/**
 * The purge (daily Cron Trigger): accounts deleted more than REACTIVATION_DAYS ago are removed with
 * everything that references them (ON DELETE CASCADE) and their photo files. Returns how many.
 */
export async function purgeDeletedAccounts(env: Pick<Env, "DB" | "PHOTOS">, now = Math.floor(Date.now() / 1000)): Promise<number> {
  const cutoff = now - REACTIVATION_DAYS * DAY;
  let purged = 0;
  for (;;) {
    const { results } = await env.DB
      .prepare("SELECT id FROM users WHERE deleted_at IS NOT NULL AND deleted_at <= ?1 LIMIT 50")
      .bind(cutoff)
      .all<{ id: string }>();
    if (results.length === 0) return purged;
    const ids = results.map((r) => r.id);
    const marks = ids.map((_, i) => `?${i + 1}`).join(",");
    const photos = await env.DB.prepare(`SELECT id FROM photos WHERE user_id IN (${marks})`).bind(...ids).all<{ id: string }>();
    const keys = photos.results.flatMap((p) => PHOTO_VARIANTS.map((v) => photoKey(p.id, v)));
    for (let i = 0; i < keys.length; i += 1000) await env.PHOTOS?.delete(keys.slice(i, i + 1000));
    // ON DELETE CASCADE removes profile, photos, likes, conversations, messages, ledger, codes, tokens.
    await env.DB.prepare(`DELETE FROM users WHERE id IN (${marks})`).bind(...ids).run();
    purged += ids.length;
  }
}

