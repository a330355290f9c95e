import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { SIGNUP_CONFIRM_HOURS } from "~/models/accounts/signup.server";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

/**
 * Where every sign-up lands (decision 224): the same page for a new and a known address, naming no
 * address, so it tells nobody whether one has an account. The mail says what comes next.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { t } = await pageContext(request, context, "account");
  return { title: t("signupSent.title") };
}

export default function SignupSent() {
  const { t } = useTranslation("account");
  return (
    <div className="container container-narrow account-page">
      <h1>{t("signupSent.title")}</h1>
      <div className="card card-body" role="status">
        <p className="lead">{t("signupSent.text")}</p>
        <p>{t("signupSent.expiry", { hours: SIGNUP_CONFIRM_HOURS })}</p>
        <p className="field-hint">{t("signupSent.noMail")}</p>
        <p className="form-links">
          <Link to="/login">{t("signup.haveAccount")}</Link>
        </p>
      </div>
    </div>
  );
}
