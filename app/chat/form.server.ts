/**
 * The send form of the no-JavaScript path (kept apart from the chat model so the Durable Object's
 * bundle does not carry zod a second time).
 */
import { z } from "zod";
import { lazy } from "~/lib/lazy";
import { normaliseText } from "~/lib/text";
import { giftById, ICEBREAKER_COUNT, type GiftId } from "./gifts";
import { CLIENT_ID } from "./protocol";
import type { SendError, SendInput } from "./protocol";
import { logError } from "~/lib/log.server";
import type { ChatError } from "~/components/chat/ChatView";

const sendForm = lazy(() =>
  z.object({
    clientId: z.string().regex(CLIENT_ID),
    body: z.string().max(20_000).optional().default(""),
    giftId: z.string().max(40).optional(),
    icebreaker: z
      .string()
      .regex(/^\d{1,2}$/)
      .optional()
      .or(z.literal("")),
  }),
);

/**
 * Parses a posted send form. A gift button carries giftId; an empty textarea with an icebreaker
 * chosen in the select (the no-JavaScript modal) sends that line, translated by `icebreakerText`.
 */
export function parseSendForm(
  form: FormData,
  icebreakerText: (n: string) => string,
): Omit<SendInput, "conversationId" | "senderId" | "prices"> | null {
  const parsed = sendForm().safeParse(Object.fromEntries(form));
  if (!parsed.success) return null;
  const { clientId, body, giftId, icebreaker } = parsed.data;
  if (giftId) return { clientId, kind: "gift", giftId };
  const text =
    normaliseText(body, { multiline: true }) ||
    (icebreaker && Number(icebreaker) >= 1 && Number(icebreaker) <= ICEBREAKER_COUNT ? icebreakerText(icebreaker) : "");
  return { clientId, kind: "text", body: text };
}

/** A refused send's answer: the error and, for a text, the text itself, so the box keeps it (JS or not). */
export function refusedSend(input: Pick<SendInput, "kind" | "body">, error: ChatError): ChatError {
  return input.kind === "text" && input.body ? { ...error, draft: input.body } : error;
}

/**
 * The status of a refused form send: 402 to buy credits, 503 when the message could not be stored (its
 * charge was given back, nothing changed: try again later), 400 for what the sender can fix.
 */
export function refusedStatus(code: SendError): 400 | 402 | 503 {
  return code === "credits" ? 402 : code === "generic" ? 503 : 400;
}

/** A form send whose room could not be reached answers as a failed store: `generic`, nothing stored. */
export async function sendOrGeneric<R>(send: () => Promise<R>): Promise<R | { ok: false; error: "generic" }> {
  try {
    return await send();
  } catch (e) {
    logError("chat.form_send_failed", e);
    return { ok: false, error: "generic" };
  }
}

/**
 * A gift picked but not yet confirmed (the picker's buttons carry pickGift): nothing is spent, the
 * page asks "Send … for N credits?" first; its yes button carries giftId. Null for anything else.
 */
export function pickedGift(form: FormData): GiftId | null {
  const pick = form.get("pickGift");
  return typeof pick === "string" ? (giftById(pick)?.id ?? null) : null;
}
