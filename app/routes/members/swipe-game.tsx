/** The swipe game: like or pass on one card at a time; at most 4 likes a day. */
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
} from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { z } from "zod";
import { lazy } from "~/lib/lazy";
import { pageContext } from "~/lib/page.server";
import { SWIPE_LIKES_PER_DAY } from "~/lib/constants";
import { requireMember } from "~/models/session.server";
import { nextCards, swipeLike, swipeMatch, swipePass } from "~/models/swipe.server";
import { SwipeCard, SwipeMatch } from "~/components/members/SwipeCard";
import styles from "~/styles/members.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "members"] };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [member, { t, lng }] = await Promise.all([
    requireMember(request, context),
    pageContext(request, context, "members"),
  ]);
  // After a mutual swipe like the action sends the member here with ?match=<id>: the match moment.
  const matchId = new URL(request.url).searchParams.get("match");
  const [next, match] = await Promise.all([
    nextCards(context.env.DB, member, 1, lng),
    matchId ? swipeMatch(context.env.DB, member.id, matchId.slice(0, 64)) : null,
  ]);
  const me = { name: member.name, mainPhotoId: member.mainPhotoId };
  return { title: t("swipe.title"), premium: member.paidUser, match, me, ...next };
}

const Input = lazy(() => z.object({ intent: z.enum(["like", "pass"]), targetId: z.string().min(1).max(64) }));

export async function action({ request, context }: ActionFunctionArgs) {
  const [member, { t }] = await Promise.all([
    requireMember(request, context),
    pageContext(request, context, "members"),
  ]);
  const parsed = Input().safeParse(Object.fromEntries(await readForm(request, context)));
  if (!parsed.success) return data({ error: t("errors.invalid") }, { status: 400 });
  const { intent, targetId } = parsed.data;
  if (intent === "pass") await swipePass(context.env.DB, member.id, targetId);
  else {
    const result = await swipeLike(context, member.id, targetId);
    if (result === "limit") return data({ error: t("swipe.limit", { max: SWIPE_LIKES_PER_DAY }) }, { status: 429 });
    if (result === "match") return redirect(`/swipe-game?match=${encodeURIComponent(targetId)}`);
  }
  return redirect("/swipe-game");
}

export default function SwipeGame() {
  const { cards, likesLeft, premium, match, me } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { t } = useTranslation("members");
  const card = cards[0];
  return (
    <div className="container container-narrow members-page swipe-game">
      <h1>{t("swipe.title")}</h1>
      <p className="hint">{t("swipe.left", { count: likesLeft })}</p>
      {match ? <SwipeMatch m={match} me={me} /> : null}
      {data?.error || likesLeft === 0 ? (
        // At the daily limit the heart still answers: it says why, with the premium offer.
        <div
          className={`alert ${data?.error ? "alert-danger" : "alert-info"} swipe-limit`}
          role={data?.error ? "alert" : "status"}
        >
          <p>{data?.error ?? t("swipe.limit", { max: SWIPE_LIKES_PER_DAY })}</p>
          {premium ? null : (
            <Link to="/premium" className="btn btn-primary btn-sm">
              {t("photos.getPremium")}
            </Link>
          )}
        </div>
      ) : null}
      {card ? <SwipeCard key={card.id} m={card} disabled={false} /> : <p className="empty">{t("swipe.empty")}</p>}
    </div>
  );
}
