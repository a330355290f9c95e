/**
 * Report a profile, a photo or a message (DSA Art. 16, decision 167): /report?member=…, ?photo=…,
 * ?message=<conversation>:<seq>. Visitors may report a profile (from a landing page or lander
 * card) and give an e-mail address for the answer. Works without JavaScript.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { lazy } from "~/lib/lazy";
import { readForm } from "~/lib/body.server";
import { useTranslation } from "~/lib/i18n-react";
import { isLanguage } from "~/lib/i18n.server";
import { pageContext } from "~/lib/page.server";
import { line, paragraph } from "~/lib/text";
import { linkOrigin } from "~/models/brand.server";
import { decisionDate } from "~/models/moderation-rules";
import { withinRateLimit } from "~/models/accounts/login.server";
import {
  EXPLANATION_MAX,
  REPORT_CATEGORIES,
  fileNotice,
  needsGoodFaith,
  parseTarget,
  targetOwner,
} from "~/models/moderation.server";
import { getMember } from "~/models/session.server";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common", "safety"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { t, lng } = await pageContext(request, context, "safety");
  if (url.searchParams.get("sent") === "1") return { sent: true as const, held: null, title: t("done.title") };
  // Received but set aside: the processing of this reporter's notices is suspended (decision 225).
  const until = Number(url.searchParams.get("until"));
  if (url.searchParams.get("sent") === "held" && Number.isInteger(until) && until > 0)
    return { sent: true as const, held: decisionDate(lng, until), title: t("done.heldTitle") };
  const target = parseTarget(url.searchParams);
  const member = await getMember(request, context);
  if (!target || !(await targetOwner(context.env, target, member?.id ?? null)))
    throw new Response(t("errors.target"), { status: 404 });
  return {
    sent: false as const,
    type: target.type,
    visitor: !member,
    categories: REPORT_CATEGORIES,
    title: t(`report.titles.${target.type}`),
  };
}

const NoticeForm = lazy(() =>
  z.object({
    category: z.enum(REPORT_CATEGORIES, { message: "errors.category" }),
    explanation: paragraph(z.string().max(EXPLANATION_MAX).default("")),
    goodFaith: z.literal("on").optional(),
    email: line(z.string().max(200).optional()),
  }),
);

export async function action({ request, context }: ActionFunctionArgs) {
  const { brand, lng, t } = await pageContext(request, context, "safety");
  const target = parseTarget(new URL(request.url).searchParams);
  const member = await getMember(request, context);
  const parsed = NoticeForm().safeParse(Object.fromEntries(await readForm(request, context)));
  if (!target) throw new Response(t("errors.target"), { status: 404 });
  if (!parsed.success) return { error: t("errors.category") };
  const input = parsed.data;
  if (needsGoodFaith(input.category)) {
    if (input.explanation.length < 20) return { error: t("errors.explanation") };
    if (!input.goodFaith) return { error: t("errors.goodFaith") };
  }
  const email = member ? member.email : (input.email ?? "").toLowerCase();
  if (!member && !z.string().email().safeParse(email).success) return { error: t("errors.email") };
  if (!(await withinRateLimit(context.env, request, "report"))) return { error: t("errors.rateLimited") };
  const filed = await fileNotice(
    context.env,
    brand,
    {
      target,
      reporter: member ? { id: member.id, email: member.email, name: member.name } : { id: null, email, name: null },
      category: input.category,
      explanation: input.explanation,
      goodFaith: !!input.goodFaith,
      language: member && isLanguage(member.language) ? member.language : lng,
    },
    { origin: linkOrigin(brand, context.env, request) },
  );
  if (!filed) throw new Response(t("errors.target"), { status: 404 });
  return redirect(filed.heldUntil ? `/report?sent=held&until=${filed.heldUntil}` : "/report?sent=1");
}

export default function Report() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation("safety");
  if (data.sent) {
    return (
      <div className="container container-narrow account-page">
        <h1>{data.held ? t("done.heldTitle") : t("done.title")}</h1>
        <div className="card form-card">
          <p role="status">{data.held ? t("done.heldBody", { until: data.held }) : t("done.body")}</p>
          {data.held ? (
            <p>
              {t("reporter.suspension.still")} <Link to="/complaints">{t("reporter.complainAction")}</Link>
            </p>
          ) : null}
          <Link to="/" className="btn btn-primary">
            {t("done.back")}
          </Link>
        </div>
      </div>
    );
  }
  return (
    <div className="container container-narrow account-page">
      <h1>{t(`report.titles.${data.type}`)}</h1>
      <Form method="post" className="card form-card">
        <p>{t("report.intro")}</p>
        {result?.error ? (
          <p className="alert alert-danger" role="alert">
            {result.error}
          </p>
        ) : null}
        <label className="field">
          <span>{t("report.category")}</span>
          <select name="category" required defaultValue="">
            <option value="" disabled>
              {t("report.choose")}
            </option>
            {data.categories.map((c) => (
              <option key={c} value={c}>
                {t(`categories.${c}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t("report.explanation")}</span>
          <textarea name="explanation" rows={4} maxLength={2000} aria-describedby="explanation-hint" />
          <span className="field-hint" id="explanation-hint">
            {t("report.explanationHint")}
          </span>
        </label>
        <label className="field-check">
          <input type="checkbox" name="goodFaith" />
          <span>{t("report.goodFaith")}</span>
        </label>
        {data.visitor ? (
          <label className="field">
            <span>{t("report.email")}</span>
            <input type="email" name="email" required autoComplete="email" aria-describedby="email-hint" />
            <span className="field-hint" id="email-hint">
              {t("report.emailHint")}
            </span>
          </label>
        ) : null}
        <button type="submit" className="btn btn-primary btn-block">
          {t("report.submit")}
        </button>
      </Form>
    </div>
  );
}
