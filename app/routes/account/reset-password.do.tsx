import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { Errors, Field } from "~/components/account/Field";
import { pageContext } from "~/lib/page.server";
import { resetSchema } from "~/models/account-forms";
import { resetPassword } from "~/models/accounts/password.server";
import { startSession } from "~/models/auth.server";
import { peekToken } from "~/models/tokens.server";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { t } = await pageContext(request, context, "account");
  const valid = !!(await peekToken(context.env.DB, token, "reset"));
  return { title: t("reset.doTitle"), token, valid };
}

/** A valid link sets the password, ends every other session and logs this browser in. */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request, context), { schema: resetSchema });
  if (submission.status !== "success") return submission.reply({ hideFields: ["password", "password_confirm"] });
  const userId = await resetPassword(context.env, submission.value.token, submission.value.password);
  if (!userId)
    return submission.reply({ formErrors: ["errors.linkInvalid"], hideFields: ["password", "password_confirm"] });
  const headers = await startSession(request, context, userId);
  return redirect("/members", { headers });
}

export default function ResetPasswordDo() {
  const { token, valid } = useLoaderData<typeof loader>();
  const { t } = useTranslation("account");
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { token },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <div className="container container-narrow account-page">
      <h1>{t("reset.doTitle")}</h1>
      {valid ? (
        <Form method="post" className="card form-card" {...getFormProps(form)}>
          <input type="hidden" name="token" value={token} />
          <Errors form id={form.errorId} errors={form.errors} />
          <Field
            field={fields.password}
            label={t("reset.newPassword")}
            type="password"
            autoComplete="new-password"
            hint={t("signup.passwordHint")}
          />
          <Field
            field={fields.password_confirm}
            label={t("reset.confirmPassword")}
            type="password"
            autoComplete="new-password"
          />
          <button type="submit" className="btn btn-primary btn-block">
            {t("reset.doSubmit")}
          </button>
        </Form>
      ) : (
        <div className="card">
          <p className="alert alert-danger" role="alert">
            {t("errors.linkInvalid")}
          </p>
          <Link to="/reset-password" className="btn btn-primary">
            {t("reset.requestNew")}
          </Link>
        </div>
      )}
    </div>
  );
}
