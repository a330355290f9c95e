/** Right after sign-up: members who match, each with a like button; then on to completing the profile. */
import { redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import { nextCards } from "~/models/swipe.server";
import { like } from "~/models/likes.server";
import { MemberCard } from "~/components/members/MemberCard";
import { LikeForm } from "~/components/members/LikeForm";
import styles from "~/styles/members.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "members"] };
export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [member, { t, lng }] = await Promise.all([
    requireMember(request, context),
    pageContext(request, context, "members"),
  ]);
  // Search's defaults, as the swipe deck and the first sign-up step (decision 214).
  const { cards } = await nextCards(context.env.DB, member, 12, lng);
  return { title: t("signupMatches.title"), matches: cards };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const form = await readForm(request, context);
  await like(context, member.id, String(form.get("targetId") ?? ""), "finder");
  return redirect("/signup-matches");
}

export default function SignupMatches() {
  const { matches } = useLoaderData<typeof loader>();
  const { t } = useTranslation("members");
  return (
    <div className="container members-page">
      <h1>{t("signupMatches.title")}</h1>
      <p>{t("signupMatches.text")}</p>
      <ul className="member-grid">
        {matches.map((m) => (
          <MemberCard key={m.id} m={m}>
            <LikeForm targetId={m.id} />
          </MemberCard>
        ))}
      </ul>
      <p className="step-actions">
        <Link to="/complete-signup" className="btn btn-primary">
          {t("steps.next")}
        </Link>
      </p>
    </div>
  );
}
