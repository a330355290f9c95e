import { redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { ConversationList } from "~/components/chat/ConversationList";
import { pageContext } from "~/lib/page.server";
import { hideConversation, listConversations } from "~/models/chat.server";
import { requireMember } from "~/models/session.server";
import chatStyles from "~/styles/chat.css";
import { readForm } from "~/lib/body.server";
import { WelcomeOffer } from "~/components/offers/WelcomeOffer";
import { CamsPromo } from "~/components/promo/CamsPromo";
import { camsPromoShown } from "~/models/cams-promo.server";
import promoStyles from "~/styles/promo.css";

export const handle = { i18n: ["common", "chat", "offers"] };
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: chatStyles },
  { rel: "stylesheet", href: promoStyles },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const [{ t, lng, brand, country }, list] = await Promise.all([
    pageContext(request, context, "chat"),
    listConversations(context.env.DB, member.id),
  ]);
  // The no-JS step before a delete (the × links here); an id not in the member's list shows nothing.
  const confirmId = new URL(request.url).searchParams.get("confirm");
  const confirm = list.find((c) => c.id === confirmId);
  // The overview is the chats page with no conversation open: the one chats placement of the promo.
  return {
    title: t("overview.title"),
    lng,
    list,
    confirm: confirm ? { id: confirm.id, name: confirm.otherName } : null,
    camsPromo: camsPromoShown(brand, { member, country, placement: "chats" }),
  };
}

/** Deleting a chat without JavaScript, from the confirmation step (with it, DELETE /api/chat.php). */
export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const form = await readForm(request, context);
  const id = String(form.get("conversation") ?? "");
  if (form.get("intent") === "delete" && id) await hideConversation(context.env, id, member.id);
  return redirect("/chats");
}

export default function Chats() {
  const { list, lng, camsPromo, confirm } = useLoaderData<typeof loader>();
  const { t } = useTranslation("chat");
  return (
    <>
      <WelcomeOffer />
      <div className="container chat-overview">
        <h1>{t("overview.title")}</h1>
        {confirm ? (
          <Form method="post" action="/chats" className="card chat-confirm" aria-labelledby="chat-confirm-title">
            <h2 id="chat-confirm-title">{t("overview.confirmTitle", { name: confirm.name })}</h2>
            <p>{t("overview.confirmHint")}</p>
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="conversation" value={confirm.id} />
            <p className="chat-confirm-actions">
              <button type="submit" className="btn btn-primary">
                {t("overview.delete")}
              </button>
              <Link to="/chats" className="btn">
                {t("overview.cancel")}
              </Link>
            </p>
          </Form>
        ) : null}
        <ConversationList items={list} lng={lng} />
        {camsPromo ? <CamsPromo placement="chats" /> : null}
      </div>
    </>
  );
}
