/** Blocking (reporting: moderation.server.ts). A member blocked by another cannot see that member's profile or photos, nor contact them. */
import { and, eq, sql } from "drizzle-orm";
import { getDb, schema } from "../../db/client";
import type { Env } from "~/lib/env";
import { findConversationWith, forgetChatRules } from "./chat.server";

type BlockEnv = Pick<Env, "DB" | "CHAT_ROOM">;

export async function block(env: BlockEnv, blockerId: string, blockedId: string) {
  if (blockerId === blockedId) return;
  const { blocks, users } = schema;
  // Only a member who exists can be blocked (the id comes from the request).
  await getDb(env.DB)
    .insert(blocks)
    .select(
      sql`SELECT ${blockerId}, ${blockedId}, unixepoch() WHERE EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${blockedId})`,
    )
    .onConflictDoNothing();
  await pairRulesChanged(env, blockerId, blockedId);
}

export async function unblock(env: BlockEnv, blockerId: string, blockedId: string) {
  const { blocks } = schema;
  await getDb(env.DB)
    .delete(blocks)
    .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)));
  await pairRulesChanged(env, blockerId, blockedId);
}

/** The pair's conversation object re-reads its rules: the block holds from the next send (decision 190). */
async function pairRulesChanged(env: BlockEnv, a: string, b: string) {
  const id = await findConversationWith(env.DB, a, b);
  if (id) await forgetChatRules(env, a, id);
}
