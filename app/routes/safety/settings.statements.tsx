/**
 * /settings/statements: every decision our moderators took about the member, each with its
 * statement of reasons (DSA Art. 17, decision 173) in the member's own language, and the way to
 * appeal it. Only the member's own decisions: the list is read by the session's member id.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { getFixedT } from "~/lib/i18n.server";
import { pageContext } from "~/lib/page.server";
import { memberLanguage, statementView, statementsOf } from "~/models/moderation.server";
import { requireMember } from "~/models/session.server";
import { StatementCard } from "~/components/safety/StatementCard";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const [{ t: page }, rows] = await Promise.all([
    pageContext(request, context, "account"),
    statementsOf(context.env.DB, member.id),
  ]);
  const lang = memberLanguage(member.language);
  const t = await getFixedT(lang, "safety");
  return {
    title: t("statements.title"),
    lang,
    intro: t("statements.intro"),
    none: t("statements.none"),
    back: page("settings.title"),
    statements: await Promise.all(rows.map((s) => statementView(context.env.SESSION_SECRET, s))),
  };
}

export default function StatementsPage() {
  const d = useLoaderData<typeof loader>();
  return (
    <div className="container container-narrow account-page statements-page">
      <p>
        <Link to="/settings">← {d.back}</Link>
      </p>
      <div lang={d.lang}>
        <h1>{d.title}</h1>
        <p>{d.intro}</p>
        {d.statements.length === 0 ? <p className="card card-body">{d.none}</p> : null}
      </div>
      {d.statements.map((s) => (
        <StatementCard key={s.id} s={s} />
      ))}
    </div>
  );
}
