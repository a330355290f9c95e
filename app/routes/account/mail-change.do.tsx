import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { TokenConfirm } from "~/components/account/TokenConfirm";
import { pageContext } from "~/lib/page.server";
import { confirmMailChange } from "~/models/accounts/settings.server";
import { peekToken } from "~/models/tokens.server";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { t } = await pageContext(request, context, "account");
  const row = await peekToken(context.env.DB, token, "mail_change");
  return { title: t("mailChange.title"), token, newEmail: row?.payload ?? null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const token = String((await readForm(request, context)).get("token") ?? "");
  return { result: await confirmMailChange(context.env, token) };
}

const MESSAGES = { invalid: "errors.linkInvalid", taken: "errors.newEmailTaken" } as const;

export default function MailChangeDo() {
  const { token, newEmail } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { t } = useTranslation("account");
  if (data || !newEmail) {
    const ok = data?.result === "ok";
    return (
      <div className="container container-narrow account-page">
        <h1>{t("mailChange.title")}</h1>
        <div className="card card-body">
          <p className={`alert ${ok ? "alert-success" : "alert-danger"}`} role={ok ? "status" : "alert"}>
            {ok ? t("mailChange.done") : t(MESSAGES[(data?.result as keyof typeof MESSAGES) ?? "invalid"])}
          </p>
          <Link to="/settings" className="btn btn-primary">
            {t("settings.title")}
          </Link>
        </div>
      </div>
    );
  }
  return (
    <TokenConfirm
      token={token}
      title={t("mailChange.title")}
      text={t("mailChange.text", { email: newEmail })}
      button={t("mailChange.submit")}
    />
  );
}
