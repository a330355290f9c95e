import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation, useSearchParams } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { Errors, Field } from "~/components/account/Field";
import { pageContext } from "~/lib/page.server";
import { safeRedirect } from "~/lib/request.server";
import { loginSchema } from "~/models/account-forms";
import { authenticate, startSession } from "~/models/auth.server";
import { getMember } from "~/models/session.server";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getMember(request, context)) return redirect("/members");
  const { t } = await pageContext(request, context, "account");
  return { title: t("login.title") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request, context);
  const submission = parseWithZod(formData, { schema: loginSchema() });
  if (submission.status !== "success") return submission.reply({ hideFields: ["password"] });
  const result = await authenticate("form", request, context, formData);
  if (!result.ok && result.reason === "suspended") return redirect(result.statement);
  if (!result.ok) {
    // "errors.blocked|15": conform errors are strings, so the minutes travel after a bar.
    const error =
      result.reason === "blocked"
        ? `errors.blocked|${result.minutes}`
        : result.reason === "rate_limited"
          ? "errors.rateLimited"
          : "errors.loginFailed";
    return submission.reply({ formErrors: [error], hideFields: ["password"] });
  }
  const headers = await startSession(request, context, result.userId, result.language);
  return redirect(safeRedirect(submission.value.redirectTo, "/members"), { headers });
}

export default function Login() {
  const { t } = useTranslation("account");
  const lastResult = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state !== "idle";
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema() }),
    shouldValidate: "onSubmit",
  });
  return (
    <div className="container container-narrow account-page">
      <h1>{t("login.title")}</h1>
      <Form method="post" className="card form-card" {...getFormProps(form)}>
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/members"} />
        <Errors form id={form.errorId} errors={form.errors} />
        <Field field={fields.email} label={t("login.email")} type="email" autoComplete="email" />
        <Field field={fields.password} label={t("login.password")} type="password" autoComplete="current-password" />
        <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
          {t("login.submit")}
        </button>
        <p className="form-links">
          <Link to="/reset-password">{t("login.forgot")}</Link>
          <Link to="/signup">{t("login.noAccount")}</Link>
        </p>
      </Form>
    </div>
  );
}
