import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { Errors, Field } from "~/components/account/Field";
import { pageContext } from "~/lib/page.server";
import { resetRequestSchema } from "~/models/account-forms";
import { requestPasswordReset } from "~/models/accounts/password.server";
import { withinRateLimit } from "~/models/accounts/login.server";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";
import { linkOrigin } from "~/models/brand.server";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { t } = await pageContext(request, context, "account");
  return { title: t("reset.title") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { brand } = await pageContext(request, context, "account");
  const submission = parseWithZod(await readForm(request, context), { schema: resetRequestSchema() });
  if (submission.status !== "success") return { ...submission.reply(), sent: false };
  if (!(await withinRateLimit(context.env, request, "reset", submission.value.email)))
    return { ...submission.reply({ formErrors: ["errors.rateLimited"] }), sent: false };
  // One answer for a known, an unknown and an over-quota address (decision 202).
  await requestPasswordReset(context.env, brand, submission.value.email, linkOrigin(brand, context.env, request));
  return { ...submission.reply({ resetForm: true }), sent: true };
}

export default function ResetPassword() {
  const { t } = useTranslation("account");
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetRequestSchema() }),
    shouldValidate: "onSubmit",
  });
  return (
    <div className="container container-narrow account-page">
      <h1>{t("reset.title")}</h1>
      <Form method="post" className="card form-card" {...getFormProps(form)}>
        {lastResult?.sent ? (
          <p className="alert alert-success" role="status">
            {t("reset.sent")}
          </p>
        ) : null}
        <Errors form id={form.errorId} errors={form.errors} />
        <p>{t("reset.text")}</p>
        <Field field={fields.email} label={t("login.email")} type="email" autoComplete="email" />
        <button type="submit" className="btn btn-primary btn-block">
          {t("reset.submit")}
        </button>
        <p className="form-links">
          <Link to="/login">{t("reset.backToLogin")}</Link>
        </p>
      </Form>
    </div>
  );
}
