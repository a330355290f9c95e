import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { Notice } from "~/components/account/Field";
import { pageContext } from "~/lib/page.server";
import { notificationSettings, saveNotificationSettings } from "~/models/accounts/settings.server";
import { requireMember } from "~/models/session.server";
import { deleteSubscriptions } from "~/models/push.server";
import { PushSetup } from "~/components/notify/PushSetup";
import accountStyles from "~/styles/account.css";
import { readForm } from "~/lib/body.server";

export const handle = { i18n: ["common", "account", "notify"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { t } = await pageContext(request, context, "account");
  return {
    title: t("notifications.title"),
    settings: await notificationSettings(context.env.DB, member.id),
    pushSubscribed: member.pushSubscribed,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const member = await requireMember(request, context);
  const form = await readForm(request, context);
  // Push off on every device (the no-JavaScript way; with it, PushSetup turns off this device).
  if (form.get("intent") === "push-off") {
    await deleteSubscriptions(context.env.DB, member.id);
    return { saved: true, pushOff: true };
  }
  await saveNotificationSettings(context.env.DB, member.id, form.getAll("enabled").map(String));
  return { saved: true };
}

/** Which e-mail notifications the member receives (docs/product/limits.md §9, NOTIFICATION_TYPES), and why a type was switched off. */
export default function Notifications() {
  const { settings, pushSubscribed } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const saved = actionData?.saved;
  // The request's member was read before the action ran: after "push off" the flag is stale.
  const pushOn = pushSubscribed && !(actionData && "pushOff" in actionData);
  const { t } = useTranslation("account");
  const { t: tn } = useTranslation("notify");
  const blocked = settings.filter((s) => s.reason && s.reason !== "user");
  return (
    <div className="container container-narrow account-page">
      <h1>{t("notifications.title")}</h1>
      <Form method="post" className="card form-card">
        <Notice text={saved ? t("settings.saved") : null} />
        {blocked.length ? (
          <div className="alert alert-warning" role="alert">
            {blocked.map((s) => (
              <p key={s.type}>{t(`notifications.reason.${s.reason}`, { type: t(`notifications.types.${s.type}`) })}</p>
            ))}
            <p>{t("notifications.reenable")}</p>
          </div>
        ) : null}
        <p>{t("notifications.text")}</p>
        <fieldset className="check-list">
          <legend className="visually-hidden">{t("notifications.title")}</legend>
          {settings.map((s) => (
            <label key={s.type} className="field-check">
              <input type="checkbox" name="enabled" value={s.type} defaultChecked={s.enabled} />
              <span>{t(`notifications.types.${s.type}`)}</span>
            </label>
          ))}
        </fieldset>
        <button type="submit" className="btn btn-primary">
          {t("settings.save")}
        </button>
        <p className="form-links">
          <Link to="/settings">{t("settings.title")}</Link>
        </p>
      </Form>
      <section className="card form-card push-card" aria-labelledby="push-title">
        <h2 id="push-title">{tn("push.title")}</h2>
        <p>{tn("push.alert")}</p>
        <PushSetup allowOff />
        {pushOn ? (
          <Form method="post">
            <input type="hidden" name="intent" value="push-off" />
            <button type="submit" className="btn btn-link">
              {tn("push.turnOffAll")}
            </button>
          </Form>
        ) : null}
      </section>
    </div>
  );
}
