/**
 * The welcome offer in the members area (docs/product/states.md §4, docs/product/roles.md §6 and docs/product/limits.md §9; decision 202): a banner with the
 * offer's one end as a date and time, and the popup after WELCOME_OFFER_POPUP_DELAY_S for a member with 0
 * credits who has not closed it before. The server decides whether the offer runs (root data
 * `welcomeOffer`: its end and the seconds left at load; null for visitors and paid users); the banner
 * leaves when the end passes while the page is open. Imported only by the members-area routes, so none
 * of it loads on the landing page.
 */
import { Link, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { WELCOME_DISCOUNT_PERCENTAGE, WELCOME_OFFER_POPUP_DELAY_S } from "~/lib/constants";
import { useTranslation } from "~/lib/i18n-react";
import { HIDE_WELCOME_OFFER_MODAL, showWelcomeOfferPopup, startCountdown } from "~/lib/offers";
import type { RootData } from "~/lib/root-data";
import { promptOnPage } from "~/lib/member-alerts";

// Kept across client navigations and revalidations: the deadline is fixed the first time this offer
// (its server end time) is seen, from the seconds left the server counted, so the device's clock never matters.
let clock: { ends: number; deadline: number } | null = null;
let enteredMembersAreaAt: number | null = null;
let hydrated = false;

/** Seconds left now. */
function secondsLeft(offer: { ends: number; left: number } | null): number {
  if (!offer) return 0;
  if (clock?.ends !== offer.ends) clock = { ends: offer.ends, deadline: Date.now() + offer.left * 1000 };
  return Math.max(0, Math.ceil((clock.deadline - Date.now()) / 1000));
}

/** The end as a date and time: in UTC on the server (named), then in the browser's own time zone. */
function formatEnd(ends: number, lng: string, timeZone?: string) {
  return new Intl.DateTimeFormat(lng, {
    day: "numeric",
    month: "long",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(new Date(ends * 1000));
}

function OfferEnd({ ends, lng }: { ends: number; lng: string }) {
  const [text, setText] = useState(() => formatEnd(ends, lng, "UTC"));
  useEffect(() => setText(formatEnd(ends, lng)), [ends, lng]);
  return (
    <time dateTime={new Date(ends * 1000).toISOString()} data-testid="welcome-offer-end">
      {text}
    </time>
  );
}

export function WelcomeOffer() {
  const root = useRouteLoaderData<RootData>("root");
  const offer = (root?.member && root.welcomeOffer) || null;
  const ends = offer?.ends ?? 0;
  const credits = root?.member?.credits ?? 0;
  const { t, i18n } = useTranslation("offers");
  const { pathname, search } = useLocation();
  // The first render matches the server's HTML; later mounts (client navigations) start from the clock.
  const [left, setLeft] = useState(() => (hydrated ? secondsLeft(offer) : (offer?.left ?? 0)));
  const [popup, setPopup] = useState(false);
  // Set once the clock runs in the browser (tests wait on it before moving the clock).
  const [live, setLive] = useState(false);

  useEffect(() => {
    hydrated = true;
    setLive(true);
    if (!offer) return setLeft(0);
    return startCountdown(secondsLeft(offer), setLeft);
  }, [ends]); // eslint-disable-line react-hooks/exhaustive-deps -- one clock per offer

  const running = left > 0;
  useEffect(() => {
    enteredMembersAreaAt ??= Date.now();
    if (!running || credits !== 0 || localStorage.getItem(HIDE_WELCOME_OFFER_MODAL)) return;
    const wait = Math.max(0, enteredMembersAreaAt + WELCOME_OFFER_POPUP_DELAY_S * 1000 - Date.now());
    const timer = setTimeout(() => {
      const inArea = (Date.now() - enteredMembersAreaAt!) / 1000;
      // Another open dialog (the like pop-up, the site-entry notice) counts as dismissed for now: one prompt at a time.
      const dismissed =
        !!localStorage.getItem(HIDE_WELCOME_OFFER_MODAL) || !!document.querySelector('[aria-modal="true"]');
      setPopup(
        showWelcomeOfferPopup({
          remaining: 1,
          credits,
          dismissed,
          secondsInMembersArea: inArea,
          delayS: WELCOME_OFFER_POPUP_DELAY_S,
        }),
      );
    }, wait);
    return () => clearTimeout(timer);
  }, [running, credits]);

  // One member prompt at a time (decision 179): another one may come first on this page.
  if (!running || promptOnPage(root?.prompts, pathname, search) !== "welcomeOffer") return null;
  const end = <OfferEnd ends={ends} lng={i18n.language} />;
  const close = () => {
    localStorage.setItem(HIDE_WELCOME_OFFER_MODAL, String(Date.now()));
    setPopup(false);
  };
  return (
    <>
      <div
        className="alert alert-banner time-bonus-banner"
        data-testid="time-bonus-banner"
        data-live={live ? "" : undefined}
      >
        <div className="container alert-banner-inner">
          <span className="time-bonus-text">
            <strong>{t("welcomeOffer.banner", { percentage: WELCOME_DISCOUNT_PERCENTAGE })}</strong>{" "}
            {t("welcomeOffer.ends")} {end}
          </span>
          <Link to="/credits" className="btn btn-primary btn-sm">
            {t("welcomeOffer.action")}
          </Link>
        </div>
      </div>
      {popup && left > 0 ? (
        // oxlint-disable-next-line jsx-a11y/no-static-element-interactions -- Escape anywhere in the dialog closes it; the dialog role sits on the child
        <div className="modal-backdrop" data-testid="time-bonus-modal" onKeyDown={(e) => e.key === "Escape" && close()}>
          <div
            className="modal time-bonus-modal"
            role="dialog"
            aria-modal="true"
            aria-labelledby="time-bonus-title"
            aria-describedby="time-bonus-body"
          >
            <div className="modal-icon" aria-hidden="true">
              -{WELCOME_DISCOUNT_PERCENTAGE}%
            </div>
            <h2 id="time-bonus-title">{t("welcomeOffer.modalTitle", { percentage: WELCOME_DISCOUNT_PERCENTAGE })}</h2>
            <p id="time-bonus-body">
              {t("welcomeOffer.modalText", { percentage: WELCOME_DISCOUNT_PERCENTAGE })} {t("welcomeOffer.ends")} {end}.{" "}
              {t("welcomeOffer.after")}
            </p>
            <div className="modal-actions">
              <Link to="/credits" className="btn btn-primary" onClick={close} autoFocus>
                {t("welcomeOffer.action")}
              </Link>
              <button type="button" className="btn btn-link" onClick={close} data-testid="time-bonus-close">
                {t("welcomeOffer.close")}
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </>
  );
}
