import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  // Reached without confirming (typed URL, old bookmark): offer a new link instead of a false "active".
  if (member.status !== "confirmed") throw redirect("/activate/resend");
  const { t, brand } = await pageContext(request, context, "account");
  return {
    title: t("activate.doneTitle"),
    name: member.name,
    paidUser: member.paidUser,
    hasPhoto: member.mainPhotoId !== null,
    brandName: brand.name,
  };
}

/** docs/product/screens.md §2: activation done shows the sign-up profile card, a get-premium card and the member overview. */
export default function ActivateDone() {
  const { name, paidUser, hasPhoto, brandName } = useLoaderData<typeof loader>();
  const { t } = useTranslation("account");
  return (
    <div className="container account-page">
      <h1>{t("activate.doneTitle")}</h1>
      <p className="lead">{t("activate.doneLead", { name, brand: brandName })}</p>
      <div className="account-cards">
        <section className="card" aria-labelledby="card-profile">
          <h2 id="card-profile">{t("activate.profileCard")}</h2>
          <p className="welcome-avatar" aria-hidden="true">
            {name.slice(0, 1).toUpperCase()}
          </p>
          <p>
            <strong>{name}</strong>
          </p>
          <p>{t(hasPhoto ? "activate.profileCardText" : "activate.profileCardNoPhoto")}</p>
          <Link to="/profile" className="btn btn-outline">
            {t("activate.profileCardAction")}
          </Link>
        </section>
        {paidUser ? null : (
          <section className="card card-premium" aria-labelledby="card-premium">
            <h2 id="card-premium">{t("activate.premiumCard")}</h2>
            <p>{t("activate.premiumCardText")}</p>
            <Link to="/premium" className="btn btn-premium">
              {t("activate.premiumCardAction")}
            </Link>
          </section>
        )}
        <section className="card" aria-labelledby="card-members">
          <h2 id="card-members">{t("activate.membersCard")}</h2>
          <p>{t("activate.membersCardText")}</p>
          <Link to="/members" className="btn btn-primary">
            {t("activate.toMembers")}
          </Link>
        </section>
      </div>
    </div>
  );
}
