import {
  data,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  redirect,
} from "@remix-run/cloudflare";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { ChatView, type ChatError } from "~/components/chat/ChatView";
import { newClientId } from "~/chat/protocol";
import { parseSendForm, pickedGift, refusedSend, refusedStatus, sendOrGeneric } from "~/chat/form.server";
import { pageContext } from "~/lib/page.server";
import { roomStub } from "~/chat/stubs";
import { conversationView } from "~/models/chat.server";
import { pricesFor } from "~/models/credits.server";
import { composerData } from "~/chat/composer.server";
import { discountCodeFields } from "~/models/discounts.server";
import { requireMember } from "~/models/session.server";
import { decisionDate, messagingRestricted } from "~/models/moderation-rules";
import chatStyles from "~/styles/chat.css";
import { readForm } from "~/lib/body.server";

export const handle = { layout: "chat", i18n: ["common", "chat", "offers"] };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: chatStyles }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const [member, { brand, t, lng }] = await Promise.all([
    requireMember(request, context),
    pageContext(request, context, "chat"),
  ]);
  // Opening the chat marks it read inside the object's history call (the sender sees the receipt).
  const viewing = conversationView(context.env, params.id ?? "", member.id, brand.chatHistoryDays, true);
  // The composer's prices are read beside the conversation, not after it (docs/architecture/budgets.md §6).
  const composing = composerData(request, context, {
    brand,
    country: member.country,
    lng,
    path: `/chats/${params.id ?? ""}`,
    also: viewing.then((v) => (v ? `/members/${v.access.otherId}/chat` : undefined)),
  });
  const [view, { composer, headers }] = await Promise.all([viewing, composing]);
  if (!view) throw new Response(t("errors.not_found"), { status: 404 });
  const a = view.access;
  return data(
    {
      title: t("room.title", { name: a.otherName }),
      lng,
      meId: member.id,
      other: { id: a.otherId, name: a.otherName, photoId: a.otherPhotoId, fictional: a.otherFictional },
      conversationId: a.id,
      messages: view.messages,
      olderHidden: view.olderHidden,
      otherRead: a.otherUnread === 0,
      list: view.list.map((c) => (c.id === a.id ? { ...c, unread: 0 } : c)),
      // A restricted member reads but cannot write (decision 173): the send footer says until when.
      restrictedUntil: messagingRestricted(member.messagingRestrictedUntil)
        ? decisionDate(lng, member.messagingRestrictedUntil!)
        : null,
      blocked: messagingRestricted(member.messagingRestrictedUntil)
        ? ("restricted" as const)
        : a.blockedBy === "unavailable"
          ? ("unavailable" as const)
          : a.blockedBy === "other"
            ? ("blockedBy" as const)
            : a.blockedBy === "me"
              ? ("blockedMe" as const)
              : null,
      clientId: newClientId(),
      ...composer,
      discount: discountCodeFields(member, brand)?.value_percentage ?? null,
    },
    { headers },
  );
}

/** The no-JavaScript send: the same Durable Object path as a live message. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { brand, t } = await pageContext(request, context, "chat");
  const conversationId = params.id ?? "";
  const form = await readForm(request, context);
  // A picked gift is only asked about; nothing is spent until its "yes" posts giftId.
  const pick = pickedGift(form);
  if (pick) return data({ confirmGift: pick });
  const input = parseSendForm(form, (n) => t(`icebreakers.${n}`));
  if (!input) return data({ error: { code: "empty" as const, max: brand.messageLength } }, { status: 400 });
  const result = await sendOrGeneric(async () =>
    roomStub(context.env, conversationId).send({
      ...input,
      conversationId,
      senderId: member.id,
      prices: pricesFor(brand, member.country),
    }),
  );
  if (!result.ok) {
    if (result.error === "not_found") throw new Response(t("errors.not_found"), { status: 404 });
    return data(
      { error: refusedSend(input, { code: result.error, max: brand.messageLength, gift: input.kind === "gift" }) },
      { status: refusedStatus(result.error) },
    );
  }
  return redirect(`/chats/${conversationId}`);
}

/** The socket keeps the conversation live: a background revalidation (badges) must not reload it. */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  formMethod,
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}) => (formMethod || currentUrl.href !== nextUrl.href ? defaultShouldRevalidate : false);

export default function ChatRoute() {
  const d = useLoaderData<typeof loader>();
  const sent = useActionData<typeof action>() as { error?: ChatError; confirmGift?: string } | undefined;
  return <ChatView key={d.conversationId} {...d} error={sent?.error ?? null} confirmGift={sent?.confirmGift ?? null} />;
}
