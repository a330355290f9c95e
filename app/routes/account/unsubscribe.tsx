/**
 * /unsubscribe?u=&t=&s= from a notification mail. GET shows a confirm button (no GET changes state);
 * POST unsubscribes: the button, or the mail client's RFC 8058 one-click POST
 * ("List-Unsubscribe=One-Click"), which carries no cookie and no Origin. The HMAC signature (s) proves
 * the link came from a mail we sent for that member and type.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { checkUnsubscribe, unsubscribe } from "~/models/notify.server";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "notify"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

const paramsOf = (request: Request, form?: FormData) => {
  const url = new URL(request.url);
  const pick = (k: string) => String(form?.get(k) ?? url.searchParams.get(k) ?? "");
  return { u: pick("u"), t: pick("t"), s: pick("s") };
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { t } = await pageContext(request, context, "notify");
  const params = paramsOf(request);
  const valid = await checkUnsubscribe(context.env, params);
  return { title: t("unsubscribe.title"), params, type: valid?.type ?? null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  // The shared parser: a mail client's one-click POST is a form (RFC 8058); anything else is a translated 400 (413 if huge), nothing changed.
  const form = await readForm(request, context);
  const valid = await checkUnsubscribe(context.env, paramsOf(request, form));
  if (!valid) return json({ done: false }, { status: 400 });
  await unsubscribe(context.env.DB, valid.userId, valid.type);
  return json({ done: true });
}

export default function Unsubscribe() {
  const { params, type } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { t } = useTranslation("notify");
  const typeName = type ? t(`typeNames.${type}`) : "";
  return (
    <div className="container container-narrow account-page">
      <h1>{t("unsubscribe.title")}</h1>
      <div className="card form-card">
        {!type || (result && !result.done) ? (
          <p className="alert alert-danger" role="alert">
            {t("unsubscribe.invalid")}
          </p>
        ) : result?.done ? (
          <p className="alert alert-success" role="status">
            {t("unsubscribe.done", { type: typeName })}
          </p>
        ) : (
          <Form method="post">
            <input type="hidden" name="u" value={params.u} />
            <input type="hidden" name="t" value={params.t} />
            <input type="hidden" name="s" value={params.s} />
            <p>{t("unsubscribe.confirm", { type: typeName })}</p>
            <button type="submit" className="btn btn-primary">
              {t("unsubscribe.button")}
            </button>
          </Form>
        )}
        <p className="form-links">
          <Link to="/notifications">{t("unsubscribe.settings")}</Link>
        </p>
      </div>
    </div>
  );
}
