import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { TokenConfirm } from "~/components/account/TokenConfirm";
import { pageContext } from "~/lib/page.server";
import { activate } from "~/models/accounts/signup.server";
import { peekToken } from "~/models/tokens.server";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!(await peekToken(context.env.DB, token, "activate"))) return redirect("/activate/error");
  const { t } = await pageContext(request, context, "account");
  return { token, title: t("activate.title") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const token = String((await readForm(request, context)).get("token") ?? "");
  if (!(await activate(context.env, token))) return redirect("/activate/error");
  return redirect("/activate/done");
}

export default function Activate() {
  const { token } = useLoaderData<typeof loader>();
  const { t } = useTranslation("account");
  return (
    <TokenConfirm token={token} title={t("activate.title")} text={t("activate.text")} button={t("activate.submit")} />
  );
}
