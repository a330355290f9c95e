/**
 * A statement of reasons (DSA Art. 17, decision 167), reachable without logging in through the
 * signed link in the mail: a suspended or banned member who logs in lands here and sees nothing else.
 * Shown in the member's own language, whatever the browser's.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { isLanguage, getFixedT } from "~/lib/i18n.server";
import { decisionOfToken, statementLines, statementOf } from "~/models/moderation.server";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common"], layout: "empty" };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ params, context }: LoaderFunctionArgs) {
  const id = await decisionOfToken(context.env.SESSION_SECRET, params.token ?? "");
  const s = id ? await statementOf(context.env.DB, id) : null;
  if (!s) throw new Response("Not found", { status: 404 });
  const lng = isLanguage(s.language) ? s.language : "en";
  const t = await getFixedT(lng, "safety");
  const lines = statementLines(t, s, lng);
  return {
    lang: lng,
    title: t("statement.title"),
    labels: {
      facts: t("statement.facts"),
      rule: t("statement.rule"),
      date: t("statement.date"),
      appeal: t("statement.appeal"),
    },
    lines,
  };
}

export default function StatementPage() {
  const s = useLoaderData<typeof loader>();
  return (
    <div className="container container-narrow account-page" lang={s.lang}>
      <h1>{s.title}</h1>
      <div className="card form-card">
        <p>
          <strong>{s.lines.what}</strong>
        </p>
        <dl className="statement">
          <dt>{s.labels.facts}</dt>
          <dd>{s.lines.facts}</dd>
          {s.lines.rule ? (
            <>
              <dt>{s.labels.rule}</dt>
              <dd>
                <Link to="/pages/terms">{s.lines.rule}</Link>
              </dd>
            </>
          ) : null}
          <dt>{s.labels.date}</dt>
          <dd>{s.lines.date}</dd>
        </dl>
        <p>{s.lines.automated}</p>
        <p>{s.labels.appeal}</p>
      </div>
    </div>
  );
}
