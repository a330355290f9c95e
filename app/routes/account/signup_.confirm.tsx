import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { TokenConfirm } from "~/components/account/TokenConfirm";
import { pageContext } from "~/lib/page.server";
import { confirmSignup, signupLinkUsable } from "~/models/accounts/signup.server";
import { startSession } from "~/models/auth.server";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

type Failure = "invalid" | "taken";

/** The mailed sign-up link (decision 224): it only shows a button, so a mail scanner's prefetch creates nothing. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { brand, t } = await pageContext(request, context, "account");
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!(await signupLinkUsable(context.env.DB, brand, token)))
    return data({ title: t("signupConfirm.failedTitle"), token: "", failed: "invalid" as Failure }, { status: 400 });
  return { title: t("signupConfirm.title"), token, failed: null, brandName: brand.name };
}

/** Creates the account, logs this browser in and continues where sign-up used to land. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { brand, t } = await pageContext(request, context, "account");
  const token = String((await readForm(request, context)).get("token") ?? "");
  const result = await confirmSignup(context.env, brand, token);
  if (!result.ok)
    return data(
      { title: t("signupConfirm.failedTitle"), failed: result.reason as Failure },
      { status: result.reason === "taken" ? 409 : 400 },
    );
  const headers = await startSession(request, context, result.userId);
  // Signed up to write to a member: straight into that conversation (the message was just sent).
  return redirect(result.conversationId ? `/chats/${result.conversationId}` : "/signup-matches", { headers });
}

export default function SignupConfirm() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const { t } = useTranslation("account");
  const failed = acted?.failed ?? loaded.failed;
  if (failed) {
    return (
      <div className="container container-narrow account-page">
        <h1>{t("signupConfirm.failedTitle")}</h1>
        <div className="card card-body" role="alert">
          <p>{t(failed === "taken" ? "signupConfirm.taken" : "signupConfirm.failedText")}</p>
          <p className="form-links">
            {failed === "taken" ? null : (
              <Link to="/signup" className="btn btn-primary">
                {t("signupConfirm.again")}
              </Link>
            )}
            <Link to="/login">{t("signup.haveAccount")}</Link>
          </p>
        </div>
      </div>
    );
  }
  return (
    <TokenConfirm
      token={loaded.token}
      title={t("signupConfirm.title")}
      text={t("signupConfirm.text", { brand: "brandName" in loaded ? loaded.brandName : "" })}
      button={t("signupConfirm.submit")}
    />
  );
}
