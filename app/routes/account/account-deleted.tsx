import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { REACTIVATION_DAYS } from "~/lib/constants";
import { pageContext } from "~/lib/page.server";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { t } = await pageContext(request, context, "account");
  return { title: t("deleted.title") };
}

export default function AccountDeleted() {
  const { t } = useTranslation("account");
  return (
    <div className="container container-narrow account-page">
      <h1>{t("deleted.title")}</h1>
      <div className="card">
        <p>{t("deleted.text", { days: REACTIVATION_DAYS })}</p>
        <Link to="/" className="btn btn-primary">
          {t("deleted.home")}
        </Link>
      </div>
    </div>
  );
}
