import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { TokenConfirm } from "~/components/account/TokenConfirm";
import { pageContext } from "~/lib/page.server";
import { confirmMailChange, mailLinkAddress } from "~/models/accounts/settings.server";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";
import { linkOrigin } from "~/models/brand.server";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { brand, t } = await pageContext(request, context, "account");
  // A used, expired, forged or other brand's link: the translated refusal, 400 (decision 238).
  const address = await mailLinkAddress(context.env.DB, brand, token, "mail_change");
  return data({ title: t("mailChange.title"), token, newEmail: address }, { status: address ? 200 : 400 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { brand } = await pageContext(request, context, "account");
  const token = String((await readForm(request, context)).get("token") ?? "");
  const result = await confirmMailChange(context.env, brand, token, linkOrigin(brand, context.env, request));
  return data({ result }, { status: result === "ok" ? 200 : result === "taken" ? 409 : 400 });
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
