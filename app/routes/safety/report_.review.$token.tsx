/**
 * A reporter's review of a decision to take no action on their notice (DSA Art. 20(1), decision
 * 219), through the signed link in the outcome mail (no login: a visitor reports too). Shown in the
 * language the notice was written in. The form within six months; then the request's state and outcome.
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
  fileReporterAppeal,
  reporterReview,
} from "~/models/appeals.server";
import { memberLanguage, noticeOfToken } from "~/models/moderation.server";
import { decisionDate } from "~/models/moderation-rules";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common"], layout: "empty" };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

async function reviewOfToken(env: { SESSION_SECRET: string; DB: D1Database }, token: string) {
  const id = await noticeOfToken(env.SESSION_SECRET, token);
  const review = id ? await reporterReview(env.DB, id) : null;
  if (!id || !review?.decision) throw new Response("Not found", { status: 404 });
  const lng = memberLanguage(review.notice.language);
  return { id, review, decision: review.decision, lng, t: await getFixedT(lng, "safety") };
}

export async function loader({ params, context }: LoaderFunctionArgs) {
  const { review, decision, lng, t } = await reviewOfToken(context.env, params.token ?? "");
  const date = (at: number) => decisionDate(lng, at);
  const a = review.appeal;
  const open = decision.action === "no_action" && decision.reversedAt === null;
  return {
    lang: lng,
    title: t("review.title"),
    decided: t("outcome.decided", { decision: t(`outcome.what.${decision.action}`) }),
    intro: t("review.intro", { target: t(`target.${review.targetType}`) }),
    redress: t("redress"),
    appeal: a
      ? {
          status: a.status,
          text: a.status === "open" ? t("appeal.received", { date: date(a.createdAt) }) : t(`review.${a.status}`),
          reasonsLabel: t("appeal.reasons"),
          reasons: a.reasons ?? "",
        }
      : null,
    form:
      !a && open && Date.now() / 1000 < appealDeadline(decision.createdAt)
        ? {
            deadline: t("appeal.deadline", { date: date(appealDeadline(decision.createdAt)) }),
            explanation: t("appeal.explanation"),
            submit: t("appeal.submit"),
          }
        : null,
    closed: !a && open && Date.now() / 1000 >= appealDeadline(decision.createdAt) ? t("appeal.closed") : "",
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { id, lng, t } = await reviewOfToken(context.env, params.token ?? "");
  const form = await readForm(request, context);
  const explanation = normaliseText(String(form.get("explanation") ?? ""), { multiline: true });
  if (explanation.length < APPEAL_EXPLANATION_MIN || explanation.length > APPEAL_EXPLANATION_MAX)
    return { error: t("appeal.errors.explanation") };
  const result = await fileReporterAppeal(context.env.DB, id, { explanation, language: lng });
  if (!result.ok) return { error: t(`appeal.errors.${result.error}`) };
  return redirect(new URL(request.url).pathname);
}

export default function ReporterReviewPage() {
  const s = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="container container-narrow account-page" lang={s.lang}>
      <h1>{s.title}</h1>
      <section className="card form-card">
        <p>
          <strong>{s.decided}</strong>
        </p>
        {s.appeal ? (
          <>
            <p role="status">{s.appeal.text}</p>
            {s.appeal.reasons ? (
              <dl className="statement">
                <dt>{s.appeal.reasonsLabel}</dt>
                <dd>{s.appeal.reasons}</dd>
              </dl>
            ) : null}
          </>
        ) : null}
        {s.closed ? <p>{s.closed}</p> : null}
        <p className="field-hint">{s.redress}</p>
      </section>
      <AppealForm form={s.form} intro={s.intro} error={result?.error} />
    </div>
  );
}
