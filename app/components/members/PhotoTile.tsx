import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { Icon } from "../Icon";
import { UnlockPhoto } from "../offers/PaidFeatures";

/** One photo of another member: sharp when the server allows it, else blurred with a lock and a Get Premium prompt. */
export function PhotoTile({
  id,
  access,
  alt,
  size = "thumb",
  unlockFor,
}: {
  id: string;
  access: "blur" | "full";
  alt: string;
  size?: "thumb" | "full";
  /** A private photo a free member may unlock for this many credits (the profile page's form handles it). */
  unlockFor?: number;
}) {
  const { t } = useTranslation("members");
  if (access === "full") {
    return (
      <a className="photo-tile" href={`/photos/${id}/full`}>
        <img src={`/photos/${id}/${size}`} alt={alt} loading="lazy" />
      </a>
    );
  }
  return (
    <div className="photo-tile photo-locked">
      <img src={`/photos/${id}/blur`} alt={t("photos.lockedAlt")} loading="lazy" />
      <div className="photo-lock">
        <Icon name="lock" size={28} />
        {unlockFor !== undefined ? (
          <UnlockPhoto photoId={id} credits={unlockFor} />
        ) : (
          <Link to="/premium" className="btn btn-primary btn-sm">
            {t("photos.getPremium")}
          </Link>
        )}
      </div>
    </div>
  );
}

/**
 * A member's face: the main image's thumbnail, or a placeholder. `eager` for a face on the first screen
 * (the page's largest paint): a lazy image is only requested after layout, which delayed LCP (docs/architecture/budgets.md §6).
 */
export function Avatar({
  photoId,
  name,
  size = "thumb",
  eager = false,
}: {
  photoId: string | null;
  name: string;
  size?: "thumb" | "full";
  eager?: boolean;
}) {
  return photoId ? (
    <img className="avatar" src={`/photos/${photoId}/${size}`} alt={name} loading={eager ? "eager" : "lazy"} />
  ) : (
    <span className="avatar avatar-empty" aria-hidden="true">
      <Icon name="user" size={40} />
    </span>
  );
}
