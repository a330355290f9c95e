/** /likes/{received|sent|matches}: received likes with new ones first, sent likes, matches. */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import { LIKE_LIST_TYPES, listLikes, type LikeListType } from "~/models/likes.server";
import { LikesPage } from "~/components/members/LikesPage";
import styles from "~/styles/members.css";
import { TimeBonus } from "~/components/offers/TimeBonus";

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

export default function Likes() {
  const { type, members } = useLoaderData<typeof loader>();
  return (
    <>
      <TimeBonus />
      <LikesPage type={type} members={members} />
    </>
  );
}
