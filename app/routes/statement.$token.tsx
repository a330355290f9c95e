/**
 * A statement of reasons (DSA Art. 17, decision 167), reachable without logging in through the
 * signed link in the mail: a suspended member who logs in lands here and sees nothing else.
 * Shown in the member's own language, whatever the browser's.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { getFixedT } from "~/lib/i18n.server";
import { decisionOfToken, memberLanguage, statementOf, statementView } from "~/models/moderation.server";
import { StatementCard } from "~/components/safety/StatementCard";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common"], layout: "empty" };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = await decisionOfToken(context.env.SESSION_SECRET, params.token ?? "");
  const s = id ? await statementOf(context.env.DB, id) : null;
  if (!s) throw new Response("Not found", { status: 404 });
  const t = await getFixedT(memberLanguage(s.language), "safety");
  return { title: t("statement.title"), statement: await statementView(context.env.SESSION_SECRET, s) };
}

export default function StatementPage() {
  const { title, statement } = useLoaderData<typeof loader>();
  return (
    <div className="container container-narrow account-page" lang={statement.lang}>
      <h1>{title}</h1>
      {/* This page is the decision's own page (where it is appealed): no link to itself. */}
      <StatementCard s={statement} appealLink={false} />
    </div>
  );
}
