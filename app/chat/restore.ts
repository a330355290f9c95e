/**
 * Point-in-time recovery of an object's own SQLite (docs/operations/recovery.md). The platform keeps
 * 30 days of every SQLite-backed Durable Object's history; a restore names a moment (or a bookmark,
 * such as the undo bookmark an earlier restore answered) and takes effect when the object restarts, so
 * the caller restarts it next (`restart`). Only the object itself can ask, hence these two RPCs on
 * ChatRoom and MemberHub. workerd keeps no history locally: there the answer is "unsupported".
 */

export type RestoreTarget = { at: number } | { bookmark: string };

export type RestoreAnswer =
  | { ok: true; bookmark: string; undo: string }
  | { ok: false; error: "unsupported" | "refused"; detail: string };

/** What ChatRoom and MemberHub answer for a restore (the operator's call, app/routes/api/api.admin.restore.ts). */
export interface Restorable {
  /** Schedules the restore of this object's storage; the undo bookmark puts it back as it is now. */
  restoreStorage(to: RestoreTarget): Promise<RestoreAnswer>;
  /** Restarts the object so that a scheduled restore takes effect (the call itself fails, by design). */
  restart(): Promise<void>;
}

export async function scheduleRestore(storage: DurableObjectStorage, to: RestoreTarget): Promise<RestoreAnswer> {
  try {
    const bookmark = "bookmark" in to ? to.bookmark : await storage.getBookmarkForTime(to.at);
    const undo = await storage.onNextSessionRestoreBookmark(bookmark);
    return { ok: true, bookmark, undo };
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return { ok: false, error: /point-in-time recovery/i.test(detail) ? "unsupported" : "refused", detail };
  }
}
