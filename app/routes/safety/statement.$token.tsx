/**
 * A statement of reasons (DSA Art. 17, decision 167), reachable without logging in through the
 * signed link in the mail: a suspended or banned member who logs in lands here and sees nothing else.
 * Shown in the member's own language, whatever the browser's. It carries the appeal (DSA Art. 20,
 * decision 174): the form within six months, then the appeal's state and its outcome with reasons.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AppealForm } from "~/components/safety/AppealForm";
import { readForm } from "~/lib/body.server";
import { getFixedT } from "~/lib/i18n.server";
import { normaliseText } from "~/lib/text";
import {
  APPEAL_EXPLANATION_MAX,
  APPEAL_EXPLANATION_MIN,
  appealDeadline,
  appealOf,
  fileAppeal,
  mayAppeal,
} from "~/models/appeals.server";
import { decisionOfToken, memberLanguage, statementOf, statementView } from "~/models/moderation.server";
import { getMember } from "~/models/session.server";
import { StatementCard } from "~/components/safety/StatementCard";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common"], layout: "empty" };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

async function statementOfToken(env: { SESSION_SECRET: string; DB: D1Database }, token: string) {
  const id = await decisionOfToken(env.SESSION_SECRET, token);
  const s = id ? await statementOf(env.DB, id) : null;
  if (!s) throw new Response("Not found", { status: 404 });
  const lng = memberLanguage(s.language);
  return { s, lng, t: await getFixedT(lng, "safety") };
}

export async function loader({ params, context }: LoaderFunctionArgs) {
  const { s, lng, t } = await statementOfToken(context.env, params.token ?? "");
  const statement = await statementView(context.env.SESSION_SECRET, s);
  const appeal = await appealOf(context.env.DB, s.d.id);
  const date = (at: number) =>
    new Intl.DateTimeFormat(lng, { dateStyle: "long", timeZone: "UTC" }).format(new Date(at * 1000));
  return {
    lang: lng,
    title: t("statement.title"),
    statement,
    appeal: appeal
      ? {
          status: appeal.status,
          received: t("appeal.received", { date: date(appeal.createdAt) }),
          outcomeTitle: t("appeal.outcomeTitle"),
          outcome: appeal.status === "open" ? "" : t(`appeal.outcome.${appeal.status}`),
          reasonsLabel: t("appeal.reasons"),
          reasons: appeal.reasons ?? "",
          decidedOnLabel: t("appeal.decidedOn"),
          decidedOn: appeal.decidedAt ? date(appeal.decidedAt) : "",
        }
      : null,
    // The form while the window is open and no appeal was filed; a closed window says so.
    form:
      !appeal && mayAppeal(s.d)
        ? {
            title: t("appeal.title"),
            intro: t("appeal.intro"),
            deadline: t("appeal.deadline", { date: date(appealDeadline(s.d.createdAt)) }),
            explanation: t("appeal.explanation"),
            submit: t("appeal.submit"),
          }
        : null,
    closed: !appeal && s.d.action !== "no_action" && !mayAppeal(s.d) ? t("appeal.closed") : "",
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { s, lng, t } = await statementOfToken(context.env, params.token ?? "");
  const form = await readForm(request, context);
  const explanation = normaliseText(String(form.get("explanation") ?? ""), { multiline: true });
  if (explanation.length < APPEAL_EXPLANATION_MIN || explanation.length > APPEAL_EXPLANATION_MAX) {
    return { error: t("appeal.errors.explanation") };
  }
  // A member logged in on this browser may appeal only their own decisions.
  const member = await getMember(request, context);
  const result = await fileAppeal(context.env.DB, s.d.id, {
    sessionMemberId: member?.id ?? null,
    explanation,
    language: lng,
  });
  if (!result.ok) return { error: t(`appeal.errors.${result.error}`) };
  return redirect(new URL(request.url).pathname);
}

export default function StatementPage() {
  const s = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="container container-narrow account-page" lang={s.lang}>
      <h1>{s.title}</h1>
      {/* This page is the decision's own page, where it is appealed: no link to itself. */}
      <StatementCard s={s.statement} appealLink={false} note={s.form || s.appeal ? null : s.closed || undefined} />
      {s.appeal ? (
        <section className="card form-card appeal" aria-labelledby="appeal-title">
          <h2 id="appeal-title">{s.appeal.outcomeTitle}</h2>
          {s.appeal.status === "open" ? (
            <p role="status">{s.appeal.received}</p>
          ) : (
            <>
              <p role="status">
                <strong>{s.appeal.outcome}</strong>
              </p>
              <dl className="statement">
                <dt>{s.appeal.reasonsLabel}</dt>
                <dd>{s.appeal.reasons}</dd>
                <dt>{s.appeal.decidedOnLabel}</dt>
                <dd>{s.appeal.decidedOn}</dd>
              </dl>
            </>
          )}
        </section>
      ) : null}
      <AppealForm form={s.form} intro={s.form?.intro ?? ""} error={result?.error} />
    </div>
  );
}
