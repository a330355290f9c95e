import { Link, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/i18n-react";
import { memberAlertShown } from "~/lib/member-alerts";

export const HIDE_ENRICH_ALERT = "hide-enrich-alert";

/**
 * The profile-photo alert: logged in, no main image, where the page shows it (memberAlertShown), not dismissed
 * (dismissing stores a timestamp in localStorage). Shown after hydration, so a dismissed alert never flashes.
 */
export function ProfilePhotoAlert({ loggedIn, hasMainImage }: { loggedIn: boolean; hasMainImage: boolean }) {
  const { t, ready } = useTranslation("members", { useSuspense: false });
  const { pathname, search } = useLocation();
  const [dismissed, setDismissed] = useState(true);
  useEffect(() => setDismissed(!!localStorage.getItem(HIDE_ENRICH_ALERT)), []);
  if (!ready || !loggedIn || hasMainImage || dismissed || !memberAlertShown("photo", pathname, search)) return null;
  const dismiss = () => {
    localStorage.setItem(HIDE_ENRICH_ALERT, String(Date.now()));
    setDismissed(true);
  };
  return (
    <div className="alert alert-warning alert-banner photo-alert" role="status">
      <div className="container alert-banner-inner">
        <span>{t("photoAlert.text")}</span>
        <Link to="/profile/photos" className="btn btn-primary btn-sm">{t("photoAlert.action")}</Link>
        <button type="button" className="btn btn-link btn-sm" onClick={dismiss}>{t("photoAlert.dismiss")}</button>
      </div>
    </div>
  );
}
