import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { Errors, Field, Notice } from "~/components/account/Field";
import { LANGUAGES } from "~/lib/constants";
import { LANGUAGE_NAMES } from "~/lib/i18n";
import { isLanguage, localeCookie } from "~/lib/i18n.server";
import { pageContext } from "~/lib/page.server";
import { changeEmailSchema, changePasswordSchema } from "~/models/account-forms";
import { changePassword } from "~/models/accounts/password.server";
import { requestMailChange, setInvisible, setLanguage } from "~/models/accounts/settings.server";
import { currentSessionHash, requireMember } from "~/models/session.server";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";
import { linkOrigin } from "~/models/brand.server";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { t, lng } = await pageContext(request, context, "account");
  return { title: t("settings.title"), email: member.email, invisible: member.invisible, status: member.status, lng };
}

type Reply = { intent: string; notice?: string; result?: SubmissionResult<string[]> };

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { brand } = await pageContext(request, context, "account");
  const formData = await readForm(request, context);
  const intent = String(formData.get("intent") ?? "");
  if (intent === "email") {
    const submission = parseWithZod(formData, { schema: changeEmailSchema() });
    if (submission.status !== "success") return { intent, result: submission.reply() } satisfies Reply;
    const v = submission.value;
    const r = await requestMailChange(
      context.env,
      brand,
      member,
      v.new_email,
      v.password,
      linkOrigin(brand, context.env, request),
    );
    const hide = { hideFields: ["password"] };
    if (r === "wrong_password")
      return { intent, result: submission.reply({ fieldErrors: { password: ["errors.oldPassword"] }, ...hide }) };
    if (r === "current")
      return {
        intent,
        result: submission.reply({ fieldErrors: { new_email: ["errors.newEmailIsCurrent"] }, ...hide }),
      };
    // The same answer for a free and a taken address (decision 238): the mail says which it was.
    return { intent, notice: "settings.emailSent", result: submission.reply({ resetForm: true }) };
  }
  if (intent === "password") {
    const submission = parseWithZod(formData, { schema: changePasswordSchema });
    const hide = { hideFields: ["old_password", "password", "password_confirm"] };
    if (submission.status !== "success") return { intent, result: submission.reply(hide) };
    const v = submission.value;
    const ok = await changePassword(
      context.env,
      member.id,
      v.old_password,
      v.password,
      await currentSessionHash(request, context),
    );
    if (!ok)
      return { intent, result: submission.reply({ fieldErrors: { old_password: ["errors.oldPassword"] }, ...hide }) };
    return { intent, notice: "settings.passwordChanged", result: submission.reply({ resetForm: true }) };
  }
  if (intent === "invisible") {
    await setInvisible(context.env.DB, member.id, formData.get("invisible") === "on");
    return { intent, notice: "settings.saved" };
  }
  if (intent === "language") {
    const lng = formData.get("language");
    if (!isLanguage(lng)) return { intent };
    await setLanguage(context.env.DB, member.id, lng);
    // The whole page changes language: a redirect reloads it with the new cookie.
    return redirect("/settings?saved=language", { headers: { "Set-Cookie": await localeCookie.serialize(lng) } });
  }
  return { intent };
}

function useSection(intent: string) {
  const data = useActionData<typeof action>() as Reply | undefined;
  return data?.intent === intent ? data : undefined;
}

function EmailForm({ email }: { email: string }) {
  const { t } = useTranslation("account");
  const data = useSection("email");
  const [form, fields] = useForm({
    id: "email",
    lastResult: data?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changeEmailSchema() }),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" className="card form-card" {...getFormProps(form)}>
      <h2>{t("settings.emailTitle")}</h2>
      <Notice text={data?.notice ? t(data.notice) : null} />
      <p>{t("settings.currentEmail", { email })}</p>
      <input type="hidden" name="intent" value="email" />
      <Field field={fields.new_email} label={t("settings.newEmail")} type="email" autoComplete="email" />
      <Field
        field={fields.password}
        label={t("settings.oldPassword")}
        type="password"
        autoComplete="current-password"
      />
      <button type="submit" className="btn btn-primary">
        {t("settings.emailSubmit")}
      </button>
    </Form>
  );
}

function PasswordForm() {
  const { t } = useTranslation("account");
  const data = useSection("password");
  const [form, fields] = useForm({
    id: "password",
    lastResult: data?.result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: changePasswordSchema }),
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" className="card form-card" {...getFormProps(form)}>
      <h2>{t("settings.passwordTitle")}</h2>
      <Notice text={data?.notice ? t(data.notice) : null} />
      <Errors form id={form.errorId} errors={form.errors} />
      <input type="hidden" name="intent" value="password" />
      <Field
        field={fields.old_password}
        label={t("settings.oldPassword")}
        type="password"
        autoComplete="current-password"
      />
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
      <button type="submit" className="btn btn-primary">
        {t("settings.passwordSubmit")}
      </button>
    </Form>
  );
}

export default function Settings() {
  const { email, invisible, status, lng } = useLoaderData<typeof loader>();
  const { t } = useTranslation("account");
  const privacy = useSection("invisible");
  const [params] = useSearchParams();
  return (
    <div className="container container-narrow account-page settings-page">
      <h1>{t("settings.title")}</h1>
      {status === "not_confirmed" ? (
        <p className="alert alert-warning">
          {t("alerts.activation", { email })} <Link to="/activate/resend">{t("activate.requestNew")}</Link>
        </p>
      ) : null}
      <EmailForm email={email} />
      <PasswordForm />
      <Form method="post" className="card form-card" id="privacy">
        <h2>{t("settings.privacyTitle")}</h2>
        <Notice text={privacy?.notice ? t(privacy.notice) : null} />
        <input type="hidden" name="intent" value="invisible" />
        <label className="field-check">
          <input type="checkbox" name="invisible" defaultChecked={invisible} />
          <span>{t("settings.invisible")}</span>
        </label>
        <p className="field-hint">{t("settings.invisibleHint")}</p>
        <button type="submit" className="btn btn-primary">
          {t("settings.save")}
        </button>
      </Form>
      <Form method="post" className="card form-card" id="language" reloadDocument>
        <h2>{t("settings.languageTitle")}</h2>
        <Notice text={params.get("saved") === "language" ? t("settings.saved") : null} />
        <input type="hidden" name="intent" value="language" />
        <div className="field">
          <label htmlFor="settings-language">{t("settings.language")}</label>
          <select id="settings-language" name="language" defaultValue={lng}>
            {[...LANGUAGES].sort().map((l) => (
              <option key={l} value={l} lang={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary">
          {t("settings.save")}
        </button>
      </Form>
      <section className="card card-body" id="more">
        <h2>{t("settings.moreTitle")}</h2>
        <ul className="link-list">
          <li>
            <Link to="/notifications">{t("notifications.title")}</Link>
          </li>
          <li>
            <Link to="/settings/my-data">{t("settings.myData")}</Link>
          </li>
          <li>
            <a href="/settings/data" download>
              {t("settings.download")}
            </a>
          </li>
          <li>
            <Link to="/settings/statements">{t("settings.statements")}</Link>
          </li>
          <li>
            <Link to="/settings/delete">{t("settings.delete")}</Link>
          </li>
        </ul>
      </section>
    </div>
  );
}
