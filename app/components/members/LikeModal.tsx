import { apiFetch } from "~/lib/api-client";
import { useEffect, useState } from "react";
import { FictionalMark } from "./FictionalMark";
import { Icon } from "../Icon";
import { useTranslation } from "~/lib/i18n-react";

const backdrop: React.CSSProperties = {
  position: "fixed",
  inset: 0,
  background: "rgba(0,0,0,.5)",
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  zIndex: 1000,
  padding: "1rem",
};
const card: React.CSSProperties = {
  maxWidth: 320,
  width: "100%",
  textAlign: "center",
  display: "grid",
  gap: ".75rem",
  justifyItems: "center",
  background: "#fff",
  padding: "1.25rem",
  borderRadius: ".75rem",
};

const closeButton: React.CSSProperties = {
  justifySelf: "end",
  minWidth: 44,
  minHeight: 44,
  padding: 0,
  margin: "-.75rem -.75rem 0 0",
};

type Liker = {
  id: string;
  suggested?: boolean;
  profile: { name: string; fictional?: boolean; main_image: { thumb_filename: string } | null };
};

/**
 * docs/product/states.md §4: after the seconds in the query `t`, show the newest like, then drop `t` from the
 * URL. The close button, Escape or a click beside the card close it; a click inside the card does not
 * (the team-run label opens its text there); the image and the button open that member's profile.
 */
export function LikeModal({ loggedIn }: { loggedIn: boolean }) {
  const { t, ready } = useTranslation("members", { useSuspense: false });
  const [liker, setLiker] = useState<Liker | null>(null);
  useEffect(() => {
    const url = new URL(window.location.href);
    const seconds = Number(url.searchParams.get("t"));
    if (!loggedIn || !url.searchParams.has("t") || !Number.isFinite(seconds) || seconds < 0) return;
    const timer = window.setTimeout(async () => {
      url.searchParams.delete("t");
      window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
      const res = await apiFetch("/api/likes.php", { headers: { Accept: "application/json" } }).catch(() => null);
      if (!res) return;
      if (!res.ok) return;
      const data = (await res.json()) as { liked_by: (Liker & { like_new: boolean })[] };
      const first = data.liked_by.find((l) => l.like_new) ?? data.liked_by[0];
      // One prompt at a time: never on top of another dialog (the welcome offer, the site-entry notice).
      if (first && !document.querySelector('[aria-modal="true"]')) setLiker(first);
    }, seconds * 1000);
    return () => window.clearTimeout(timer);
  }, [loggedIn]);
  useEffect(() => {
    if (!liker) return;
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && setLiker(null);
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [liker]);
  if (!liker || !ready) return null;
  const href = `/members/${liker.id}`;
  return (
    // Inline styles: the modal can open on any page, including those that do not link members.css.
    // oxlint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click beside the card closes it; Escape (document listener) and the close button do for keyboards
    <div
      className="like-modal-backdrop"
      style={backdrop}
      role="dialog"
      aria-modal="true"
      aria-labelledby="like-modal-title"
      data-testid="like-modal"
      onClick={(e) => e.target === e.currentTarget && setLiker(null)}
    >
      <div className="like-modal card" style={card}>
        <button
          type="button"
          className="btn btn-link like-modal-close"
          style={closeButton}
          aria-label={t("likes.modalClose")}
          data-testid="like-modal-close"
          onClick={() => setLiker(null)}
        >
          <Icon name="close" />
        </button>
        <h2 id="like-modal-title">
          {liker.suggested ? t("likes.suggested") : t("likes.modalTitle", { name: liker.profile.name })}
        </h2>
        {liker.profile.main_image ? (
          <a href={href}>
            <img
              src={liker.profile.main_image.thumb_filename}
              alt={liker.profile.name}
              width={160}
              height={160}
              style={{ borderRadius: "50%", objectFit: "cover" }}
            />
          </a>
        ) : null}
        {liker.profile.fictional ? <FictionalMark /> : null}
        <a href={href} className="btn btn-primary">
          {t("likes.modalView")}
        </a>
      </div>
    </div>
  );
}
