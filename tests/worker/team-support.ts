/** Shared by the team inbox's worker tests (decisions 201, 210, 211). */
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { startConversation } from "../../app/models/chat.server";
import { createMember } from "./fixtures";
import { createOperator, operatorCookie } from "./admin-support";
import { cid, PRICES, roomStub } from "./chat-support";

export const asRole = async (role: "admin" | "support" | "moderator" | "finance" | "chat_team") => {
  const op = await createOperator(role);
  return { ...op, cookie: await operatorCookie(op.id) };
};

/** A member (of brand 1 unless told) who wrote a paid message to a team-run profile of the brand. */
export async function waitingMember(body = "Hello there, how is your week going?", o: { brandId?: number } = {}) {
  const profile = await createMember({ name: `Persona ${cid()}`, gender: "female", brandId: o.brandId });
  await env.DB.prepare("UPDATE profiles SET fictional = 1 WHERE user_id = ?1").bind(profile.id).run();
  const member = await createMember({
    name: `Waiter ${cid()}`,
    gender: "male",
    credits: 50,
    language: "de",
    brandId: o.brandId,
  });
  const started = await startConversation(env.DB, member.id, profile.id);
  if (!started.ok) throw new Error(started.error);
  const conversationId = started.id;
  const sent = await roomStub(env, conversationId).send({
    conversationId,
    senderId: member.id,
    prices: PRICES,
    clientId: cid(),
    kind: "text",
    body,
  });
  expect(sent).toMatchObject({ ok: true, cost: PRICES.message });
  await roomStub(env, conversationId).settled();
  return { profile, member, conversationId };
}

export const teamRow = (conversationId: string) =>
  env.DB.prepare("SELECT * FROM team_conversations WHERE conversation_id = ?1").bind(conversationId).first<{
    waiting_since: number | null;
    credits: number;
    language: string;
    claimed_by: string | null;
    first_reply_at: number | null;
    credits_returned: number;
    refund_from: number | null;
  }>();

export const replyForm = (body: string) => ({ intent: "reply", body, clientId: `team-${cid()}` });
