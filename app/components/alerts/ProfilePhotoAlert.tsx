import { Link } from "@remix-run/react";
import type { TFunction } from "~/lib/i18n-react";

export const HIDE_ENRICH_ALERT = "hide-enrich-alert";

/**
 * The profile-photo alert (docs/product/states.md §4): logged in, no main image, where the page shows it
 * (memberAlertShown), not dismissed (dismissing stores a timestamp in localStorage). MemberExtras
 * decides and shows it with the other alerts that depend on this browser, after hydration, so a
 * dismissed alert never flashes.
 */
export function ProfilePhotoAlert({ t, onDismiss }: { t: TFunction; onDismiss: () => void }) {
  return (
    <div className="alert alert-warning alert-banner photo-alert" role="status">
      <div className="container alert-banner-inner">
        <span>{t("members:photoAlert.text")}</span>
        <Link to="/profile/photos" className="btn btn-primary btn-sm">
          {t("members:photoAlert.action")}
        </Link>
        <button type="button" className="btn btn-link btn-sm" onClick={onDismiss}>
          {t("members:photoAlert.dismiss")}
        </button>
      </div>
    </div>
  );
}
