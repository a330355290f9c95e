/**
 * Restoring a Durable Object's storage to a moment of the last 30 days (point-in-time recovery;
 * docs/operations/recovery.md): a member's wallet (their MemberHub, decision 189) or a conversation's
 * messages (its ChatRoom, decision 190). The operator's call is POST /api/admin/restore.
 */
import { z } from "zod";
import { hubStub, roomStub } from "../chat/stubs";
import type { RestoreAnswer } from "../chat/restore";
import type { Env } from "../lib/env";
import { logWarning } from "../lib/log.server";

/** How far back the platform keeps an object's history. */
export const RESTORE_DAYS = 30;

export const restoreSchema = z
  .object({
    object: z.enum(["member", "conversation"]),
    /** The member's or the conversation's id (the object's name). */
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    /** The moment to go back to (ISO 8601 with an offset), or a bookmark (an earlier restore's undo). */
    at: z.string().datetime({ offset: true }).optional(),
    bookmark: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,256}$/)
      .optional(),
  })
  .refine((r) => (r.at === undefined) !== (r.bookmark === undefined), { message: "give at or bookmark", path: ["at"] })
  .refine((r) => r.at === undefined || withinHistory(Date.parse(r.at), Date.now()), {
    message: `within the last ${RESTORE_DAYS} days`,
    path: ["at"],
  });

export type RestoreInput = z.infer<typeof restoreSchema>;

export function withinHistory(at: number, now: number): boolean {
  return at <= now && at > now - RESTORE_DAYS * 86_400_000;
}

/** Schedules the restore in the object, then restarts it so that it takes effect. */
export async function restoreObject(
  env: Pick<Env, "CHAT_ROOM" | "MEMBER_HUB">,
  r: RestoreInput,
): Promise<RestoreAnswer> {
  const stub = r.object === "member" ? hubStub(env, r.id) : roomStub(env, r.id);
  const answer = await stub.restoreStorage(r.at ? { at: Date.parse(r.at) } : { bookmark: r.bookmark! });
  logWarning("restore", { object: r.object, id: r.id, at: r.at ?? null, ok: answer.ok });
  if (!answer.ok) return answer;
  // The restart is the restore: the object aborts, so the call fails by design.
  await stub.restart().catch(() => undefined);
  return answer;
}
