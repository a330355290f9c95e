/** The swipe game: like or pass on one card at a time; at most 4 likes a day. */
import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { z } from "zod";
import { pageContext } from "~/lib/page.server";
import { SWIPE_LIKES_PER_DAY } from "~/lib/constants";
import { requireMember } from "~/models/session.server";
import { nextCards, swipeLike, swipePass } from "~/models/swipe.server";
import { SwipeCard } from "~/components/members/SwipeCard";
import styles from "~/styles/members.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "members"] };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [member, { t }] = await Promise.all([requireMember(request, context), pageContext(request, context, "members")]);
  return { title: t("swipe.title"), ...(await nextCards(context.env.DB, member.id, 1)) };
}

const Input = z.object({ intent: z.enum(["like", "pass"]), targetId: z.string().min(1).max(64) });

export async function action({ request, context }: ActionFunctionArgs) {
  const [member, { t }] = await Promise.all([requireMember(request, context), pageContext(request, context, "members")]);
  const parsed = Input.safeParse(Object.fromEntries(await readForm(request, context)));
  if (!parsed.success) return json({ error: t("errors.invalid") }, { status: 400 });
  const { intent, targetId } = parsed.data;
  if (intent === "pass") await swipePass(context.env.DB, member.id, targetId);
  else if ((await swipeLike(context, member.id, targetId)) === "limit") {
    return json({ error: t("swipe.limit", { max: SWIPE_LIKES_PER_DAY }) }, { status: 429 });
  }
  return redirect("/swipe-game");
}

export default function SwipeGame() {
  const { cards, likesLeft } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { t } = useTranslation("members");
  const card = cards[0];
  return (
    <div className="container container-narrow members-page swipe-game">
      <h1>{t("swipe.title")}</h1>
      <p className="hint">{t("swipe.left", { count: likesLeft })}</p>
      {data?.error ? <p className="alert alert-danger" role="alert">{data.error}</p> : null}
      {likesLeft === 0 && !data?.error ? <p className="alert alert-info">{t("swipe.limit", { max: SWIPE_LIKES_PER_DAY })}</p> : null}
      {card ? <SwipeCard key={card.id} m={card} disabled={false} /> : <p className="empty">{t("swipe.empty")}</p>}
    </div>
  );
}
