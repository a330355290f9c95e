import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { TokenConfirm } from "~/components/account/TokenConfirm";
import { REACTIVATION_DAYS } from "~/lib/constants";
import { pageContext } from "~/lib/page.server";
import { reactivate } from "~/models/accounts/deletion.server";
import { startSession } from "~/models/auth.server";
import { peekToken } from "~/models/tokens.server";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { t } = await pageContext(request, context, "account");
  return { title: t("reactivate.title"), token, valid: !!(await peekToken(context.env.DB, token, "reactivate")) };
}

/** Within REACTIVATION_DAYS the account comes back as it was, and this browser is logged in. */
export async function action({ request, context }: ActionFunctionArgs) {
  const token = String((await readForm(request, context)).get("token") ?? "");
  const userId = await reactivate(context.env.DB, token);
  if (!userId) return { failed: true };
  return redirect("/members?reactivated=1", { headers: await startSession(request, context, userId) });
}

export default function Reactivate() {
  const { token, valid } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>()?.failed;
  const { t } = useTranslation("account");
  if (!valid || failed) {
    return (
      <div className="container container-narrow account-page">
        <h1>{t("reactivate.title")}</h1>
        <div className="card">
          <p className="alert alert-danger" role="alert">
            {t("reactivate.failed", { days: REACTIVATION_DAYS })}
          </p>
          <Link to="/signup" className="btn btn-primary">
            {t("reactivate.signup")}
          </Link>
        </div>
      </div>
    );
  }
  return (
    <TokenConfirm
      token={token}
      title={t("reactivate.title")}
      text={t("reactivate.text")}
      button={t("reactivate.submit")}
    />
  );
}
