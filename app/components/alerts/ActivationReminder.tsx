import { Form, useLocation, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/lib/i18n-react";
import { memberAlertShown, promptOnPage } from "~/lib/member-alerts";
import type { RootData } from "~/lib/root-data";

export interface ReminderMember {
  status: string;
  profileStatus: string;
  notificationsDisabled: string[];
}

/**
 * docs/product/states.md §4: shown to a logged-in member with status not_confirmed and a disabled profile,
 * with no disabled notifications, where the page shows it (memberAlertShown: not on signup, settings,
 * notifications, the payment pages, or above the sign-up step that asks for the confirmation).
 */
export function showActivationReminder(
  member: ReminderMember | null | undefined,
  pathname: string,
  search = "",
): boolean {
  if (!member) return false;
  if (member.status !== "not_confirmed" || member.profileStatus !== "disabled") return false;
  if (member.notificationsDisabled.length > 0) return false;
  return memberAlertShown("activation", pathname, search);
}

const isSmartphone = () =>
  window.matchMedia("(max-width: 575.98px)").matches || /Android.+Mobile|iPhone|iPod/.test(navigator.userAgent);

/** A modal on a smartphone right after the sign-up API (api_signup_complete), otherwise an alert. */
export function ActivationReminder({ member }: { member: ReminderMember | null | undefined }) {
  const { t } = useTranslation("account");
  const { pathname, search } = useLocation();
  const [params] = useSearchParams();
  const [modal, setModal] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const apiSignupComplete = params.has("api_signup_complete");
  useEffect(() => {
    if (apiSignupComplete && isSmartphone()) setModal(true);
  }, [apiSignupComplete]);
  useEffect(() => {
    if (modal && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [modal]);
  const prompts = useRouteLoaderData<RootData>("root")?.prompts;
  if (!showActivationReminder(member, pathname, search)) return null;
  // Another prompt comes first on this page (decision 179): one at a time.
  if (prompts && promptOnPage(prompts, pathname, search) !== "activation") return null;
  const body = (
    <>
      <strong>{t("alerts.activationTitle")}</strong> <span className="alert-text">{t("alerts.activationText")}</span>{" "}
      <Form method="get" action="/activate/resend" className="inline-form">
        <button type="submit" className="btn btn-link btn-sm">
          {t("activate.requestNew")}
        </button>
      </Form>
    </>
  );
  if (modal) {
    return (
      <dialog
        ref={dialog}
        className="modal activation-modal"
        aria-labelledby="activation-title"
        onClose={() => setModal(false)}
      >
        <h2 id="activation-title">{t("alerts.activationTitle")}</h2>
        <p>{t("alerts.activationText")}</p>
        <div className="modal-actions">
          <a href="/activate/resend" className="btn btn-outline">
            {t("activate.requestNew")}
          </a>
          <button type="button" className="btn btn-primary" onClick={() => dialog.current?.close()}>
            {t("alerts.ok")}
          </button>
        </div>
      </dialog>
    );
  }
  return (
    <div className="alert alert-warning account-alert" role="status" data-testid="activation-reminder">
      <div className="container">{body}</div>
    </div>
  );
}
