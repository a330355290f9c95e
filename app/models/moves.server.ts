/**
 * The consumer of the data-moves queue (decision 194): the moves of D1's messages and credits into the
 * objects run on their own queue, so their pages (each up to 20 rooms or 50 wallets touched) never wait
 * in front of a member's mail or push on the notifications queue.
 */
import type { Env } from "~/lib/env";
import { logError } from "~/lib/log.server";
import { continueChatMigration } from "./chat.server";
import type { DataMove } from "./moves";
import { continueWalletMigration } from "../wallet/migrate.server";

export type MovesEnv = Pick<Env, "DB" | "CHAT_ROOM" | "MEMBER_HUB" | "MOVES_QUEUE">;

/** Each page on its own: acked when done, retried later when it threw (every page is idempotent). */
export async function handleMovesBatch(batch: MessageBatch<DataMove>, env: MovesEnv) {
  for (const message of batch.messages) {
    try {
      if (message.body.kind === "chat_migrate") await continueChatMigration(env);
      else await continueWalletMigration(env, message.body.after ?? "");
      message.ack();
    } catch (e) {
      logError("moves.page_failed", e, { kind: message.body.kind, attempts: message.attempts });
      message.retry({ delaySeconds: 30 });
    }
  }
}
