import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
} from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ChatView, type ChatError } from "~/components/chat/ChatView";
import { newClientId, type WireMessage } from "~/chat/protocol";
import { parseSendForm, pickedGift, refusedSend, refusedStatus, sendOrGeneric } from "~/chat/form.server";
import { pageContext } from "~/lib/page.server";
import { canStart, listConversations, otherMemberCard, startAndSend } from "~/models/chat.server";
import { pricesFor } from "~/models/credits.server";
import { composerData } from "~/chat/composer.server";
import { discountCodeFields } from "~/models/discounts.server";
import { requireMember } from "~/models/session.server";
import { decisionDate, messagingRestricted } from "~/models/moderation-rules";
import chatStyles from "~/styles/chat.css";
import { readForm } from "~/lib/body.server";

export const handle = { layout: "chat", i18n: ["common", "chat", "offers"] };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: chatStyles }];

/** Opens the conversation with member {id}: the existing one, or an empty one that the first message starts. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const otherId = params.id ?? "";
  const { brand, t, lng } = await pageContext(request, context, "chat");
  const [check, other, list] = await Promise.all([
    canStart(context.env.DB, member.id, otherId),
    otherMemberCard(context.env.DB, otherId),
    listConversations(context.env.DB, member.id),
  ]);
  if (check.ok && check.id) throw redirect(`/chats/${check.id}`);
  if (!other || (!check.ok && (check.error === "not_found" || check.error === "self"))) {
    throw new Response(t("errors.not_found"), { status: 404 });
  }
  const blocked = check.ok
    ? null
    : check.error === "premium" || check.error === "restricted"
      ? check.error
      : ("blocked" as const);
  const { composer, headers } = await composerData(request, context, {
    brand,
    country: member.country,
    lng,
    path: `/members/${other.id}/chat`,
  });
  return data(
    {
      title: t("room.title", { name: other.name }),
      lng,
      meId: member.id,
      other,
      conversationId: null,
      messages: [] as WireMessage[],
      olderHidden: false,
      otherRead: false,
      list,
      blocked,
      restrictedUntil: messagingRestricted(member.messagingRestrictedUntil)
        ? decisionDate(lng, member.messagingRestrictedUntil!)
        : null,
      clientId: newClientId(),
      ...composer,
      discount: discountCodeFields(member, brand)?.value_percentage ?? null,
    },
    { headers },
  );
}

/** The first message: starts the conversation (free members: at most 2), then sends through its object. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { brand, t } = await pageContext(request, context, "chat");
  const form = await readForm(request, context);
  // A picked gift is only asked about; nothing is spent until its "yes" posts giftId.
  const pick = pickedGift(form);
  if (pick) return data({ confirmGift: pick });
  const input = parseSendForm(form, (n) => t(`icebreakers.${n}`));
  if (!input) return data({ error: { code: "empty" as const, max: brand.messageLength } }, { status: 400 });
  const sent = await sendOrGeneric(() =>
    startAndSend(context.env, member, params.id ?? "", { ...input, prices: pricesFor(brand, member.country) }),
  );
  if (sent.ok) return redirect(`/chats/${sent.id}`);
  const code = sent.error;
  if (code === "not_found" || code === "self") throw new Response(t("errors.not_found"), { status: 404 });
  if (code === "premium" || code === "blocked" || code === "restricted")
    return data({ error: refusedSend(input, { code }) }, { status: 403 });
  return data(
    { error: refusedSend(input, { code, max: brand.messageLength, gift: input.kind === "gift" }) },
    { status: refusedStatus(code) },
  );
}

export default function MemberChatRoute() {
  const d = useLoaderData<typeof loader>();
  const sent = useActionData<typeof action>() as { error?: ChatError; confirmGift?: string } | undefined;
  return <ChatView {...d} error={sent?.error ?? null} confirmGift={sent?.confirmGift ?? null} />;
}
