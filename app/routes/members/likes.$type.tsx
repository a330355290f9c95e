/** /likes/{received|sent|matches}: received likes with new ones first, sent likes, matches. */
import { redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import { LIKE_LIST_TYPES, like, listLikes, type LikeListType } from "~/models/likes.server";
import { readForm } from "~/lib/body.server";
import { LikesPage } from "~/components/members/LikesPage";
import styles from "~/styles/members.css";
import { WelcomeOffer } from "~/components/offers/WelcomeOffer";

export const handle = { i18n: ["common", "members", "offers"] };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const type = (params.type ?? "received") as LikeListType;
  if (!LIKE_LIST_TYPES.includes(type)) throw new Response("Not found", { status: 404 });
  const [member, { t, lng }] = await Promise.all([
    requireMember(request, context),
    pageContext(request, context, "members"),
  ]);
  return { title: t("likes.title"), type, members: await listLikes(context.env.DB, member.id, type, lng) };
}

/** "Like back" on a received like: the like (idempotent, refused for blocked or unknown members by the model). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const form = await readForm(request, context);
  const targetId = String(form.get("targetId") ?? "").slice(0, 64);
  if (!targetId) throw new Response("Bad request", { status: 400 });
  await like(context, member.id, targetId, "profile");
  const type = params.type as LikeListType;
  return redirect(`/likes/${LIKE_LIST_TYPES.includes(type) ? type : "received"}`);
}

export default function Likes() {
  const { type, members } = useLoaderData<typeof loader>();
  return (
    <>
      <WelcomeOffer />
      <LikesPage type={type} members={members} />
    </>
  );
}
