import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { safeRedirect } from "~/lib/request.server";
import { checkCredentials } from "~/models/auth.server";
import { createSession, getMember } from "~/models/session.server";

export const handle = { i18n: ["common", "account"] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getMember(request, context)) return redirect("/members");
  const { t } = await pageContext(request, context, "account");
  return { title: t("login.title") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { brand, t } = await pageContext(request, context, "account");
  const form = await request.formData();
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  const user = await checkCredentials(context.env.DB, context.env.PASSWORD_PEPPER, brand.id, email, password);
  if (!user) return { error: t("login.failed") };
  const cookie = await createSession(context, user.id, request.headers.get("User-Agent") ?? "");
  return redirect(safeRedirect(form.get("redirectTo"), "/members"), { headers: { "Set-Cookie": cookie } });
}

export default function Login() {
  const { t } = useTranslation("account");
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  return (
    <div className="container container-narrow">
      <h1>{t("login.title")}</h1>
      <Form method="post" className="card form-card">
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/members"} />
        {data?.error ? <p className="alert alert-danger" role="alert">{data.error}</p> : null}
        <label className="field">
          <span>{t("login.email")}</span>
          <input type="email" name="email" autoComplete="email" required />
        </label>
        <label className="field">
          <span>{t("login.password")}</span>
          <input type="password" name="password" autoComplete="current-password" required />
        </label>
        <button type="submit" className="btn btn-primary btn-block">{t("login.submit")}</button>
      </Form>
    </div>
  );
}
