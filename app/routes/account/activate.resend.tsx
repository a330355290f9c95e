import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { Notice } from "~/components/account/Field";
import { pageContext } from "~/lib/page.server";
import { resendActivation } from "~/models/accounts/signup.server";
import { requireMember } from "~/models/session.server";
import accountStyles from "~/styles/account.css";
import { linkOrigin } from "~/models/brand.server";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { t } = await pageContext(request, context, "account");
  return { title: t("activate.requestNew"), email: member.email, confirmed: member.status === "confirmed" };
}

/** A new activation link (from the reminder alert, settings or the error page). */
export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const { brand } = await pageContext(request, context, "account");
  const result = await resendActivation(context.env, brand, member, linkOrigin(brand, context.env, request));
  return { result };
}

const MESSAGES = {
  sent: "activate.sent",
  too_many: "errors.tooManyActivations",
  confirmed: "activate.alreadyConfirmed",
} as const;

export default function ActivateResend() {
  const { email, confirmed } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { t } = useTranslation("account");
  return (
    <div className="container container-narrow account-page">
      <h1>{t("activate.requestNew")}</h1>
      <Form method="post" className="card form-card">
        {data?.result === "too_many" ? (
          <p className="alert alert-danger" role="alert">
            {t(MESSAGES.too_many)}
          </p>
        ) : (
          <Notice text={data ? t(MESSAGES[data.result], { email }) : null} />
        )}
        <p>{t(confirmed ? "activate.alreadyConfirmed" : "activate.resendText", { email })}</p>
        {confirmed ? null : (
          <button type="submit" className="btn btn-primary btn-block">
            {t("activate.resendSubmit")}
          </button>
        )}
      </Form>
    </div>
  );
}
