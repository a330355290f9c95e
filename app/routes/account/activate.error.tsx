import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { getMember } from "~/models/session.server";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [{ t }, member] = await Promise.all([pageContext(request, context, "account"), getMember(request, context)]);
  return { title: t("errors.activationFailed"), loggedIn: !!member, confirmed: member?.status === "confirmed" };
}

export default function ActivateError() {
  const { loggedIn, confirmed } = useLoaderData<typeof loader>();
  const { t } = useTranslation("account");
  return (
    <div className="container container-narrow account-page">
      <h1>{t("errors.activationFailed")}</h1>
      <div className="card card-body">
        <p>{t(confirmed ? "activate.alreadyConfirmed" : "activate.failedText")}</p>
        {confirmed ? (
          <Link to="/members" className="btn btn-primary">
            {t("activate.toMembers")}
          </Link>
        ) : loggedIn ? (
          <Link to="/activate/resend" className="btn btn-primary">
            {t("activate.requestNew")}
          </Link>
        ) : (
          <Link to="/login?redirectTo=%2Factivate%2Fresend" className="btn btn-primary">
            {t("activate.loginToRequest")}
          </Link>
        )}
      </div>
    </div>
  );
}
