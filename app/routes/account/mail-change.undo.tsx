import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { TokenConfirm } from "~/components/account/TokenConfirm";
import { pageContext } from "~/lib/page.server";
import { undoMailChange, mailLinkAddress } from "~/models/accounts/settings.server";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";

/** The link mailed to the previous address when someone asks to change it (decision 087). */
export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { brand, t } = await pageContext(request, context, "account");
  // A used, expired, forged or other brand's link: the translated refusal, 400 (decision 238).
  const address = await mailLinkAddress(context.env.DB, brand, token, "mail_undo");
  return data({ title: t("mailUndo.title"), token, oldEmail: address }, { status: address ? 200 : 400 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { brand } = await pageContext(request, context, "account");
  const token = String((await readForm(request, context)).get("token") ?? "");
  const result = await undoMailChange(context.env, brand, token);
  return data({ result }, { status: result === "ok" ? 200 : result === "taken" ? 409 : 400 });
}

const MESSAGES = { invalid: "errors.linkInvalid", taken: "mailUndo.taken" } as const;

export default function MailChangeUndo() {
  const { token, oldEmail } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { t } = useTranslation("account");
  if (data || !oldEmail) {
    const ok = data?.result === "ok";
    return (
      <div className="container container-narrow account-page">
        <h1>{t("mailUndo.title")}</h1>
        <div className="card card-body">
          <p className={`alert ${ok ? "alert-success" : "alert-danger"}`} role={ok ? "status" : "alert"}>
            {ok ? t("mailUndo.done") : t(MESSAGES[(data?.result as keyof typeof MESSAGES) ?? "invalid"])}
          </p>
          {ok ? (
            <Link to="/reset-password" className="btn btn-primary">
              {t("mailUndo.newPassword")}
            </Link>
          ) : null}
        </div>
      </div>
    );
  }
  return (
    <TokenConfirm
      token={token}
      title={t("mailUndo.title")}
      text={t("mailUndo.text", { email: oldEmail })}
      button={t("mailUndo.submit")}
    />
  );
}
