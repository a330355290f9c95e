/**
 * The time bonus in the members area (docs/product.md §4, §6 and §9): a banner with the countdown, and the
 * popup after TIME_BONUS_POPUP_DELAY_S for a member with 0 credits who has not closed it before. The
 * server decides whether a bonus runs (root data `timeBonus`: its end and the seconds left at load; null
 * for visitors and paid users); without JavaScript the banner shows the time left as of the page load.
 * Imported only by the members-area routes, so none of it loads on the landing page.
 */
import { Link, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { TIME_BONUS_ACT_FAST_VALUE, TIME_BONUS_PERCENTAGE, TIME_BONUS_POPUP_DELAY_S } from "~/lib/constants";
import { useTranslation } from "~/lib/i18n-react";
import { formatCountdown, HIDE_TIME_BONUS_MODAL, showTimeBonusPopup, startCountdown } from "~/lib/offers";
import type { RootData } from "~/lib/root-data";
import { promptOnPage } from "~/lib/member-alerts";

// Kept across client navigations and revalidations: the deadline is fixed the first time this bonus
// (its server end time) is seen, from the seconds left the server counted, so the device's clock never matters.
let clock: { ends: number; deadline: number } | null = null;
let enteredMembersAreaAt: number | null = null;
let hydrated = false;

/** Seconds left now. */
function secondsLeft(bonus: { ends: number; left: number } | null): number {
  if (!bonus) return 0;
  if (clock?.ends !== bonus.ends) clock = { ends: bonus.ends, deadline: Date.now() + bonus.left * 1000 };
  return Math.max(0, Math.ceil((clock.deadline - Date.now()) / 1000));
}

export function TimeBonus() {
  const root = useRouteLoaderData<RootData>("root");
  const bonus = (root?.member && root.timeBonus) || null;
  const ends = bonus?.ends ?? 0;
  const credits = root?.member?.credits ?? 0;
  const { t } = useTranslation("offers");
  const { pathname, search } = useLocation();
  // The first render matches the server's HTML; later mounts (client navigations) start from the clock.
  const [left, setLeft] = useState(() => (hydrated ? secondsLeft(bonus) : (bonus?.left ?? 0)));
  const [popup, setPopup] = useState(false);
  // Set once the countdown runs in the browser (tests wait on it before moving the clock).
  const [live, setLive] = useState(false);

  useEffect(() => {
    hydrated = true;
    setLive(true);
    if (!bonus) return setLeft(0);
    return startCountdown(secondsLeft(bonus), setLeft);
  }, [ends]); // eslint-disable-line react-hooks/exhaustive-deps -- one countdown per bonus

  const running = left > 0;
  useEffect(() => {
    enteredMembersAreaAt ??= Date.now();
    if (!running || credits !== 0 || localStorage.getItem(HIDE_TIME_BONUS_MODAL)) return;
    const wait = Math.max(0, enteredMembersAreaAt + TIME_BONUS_POPUP_DELAY_S * 1000 - Date.now());
    const timer = setTimeout(() => {
      const inArea = (Date.now() - enteredMembersAreaAt!) / 1000;
      const dismissed = !!localStorage.getItem(HIDE_TIME_BONUS_MODAL);
      setPopup(
        showTimeBonusPopup({
          remaining: 1,
          credits,
          dismissed,
          secondsInMembersArea: inArea,
          delayS: TIME_BONUS_POPUP_DELAY_S,
        }),
      );
    }, wait);
    return () => clearTimeout(timer);
  }, [running, credits]);

  // One member prompt at a time (decision 179): another one may come first on this page.
  if (!running || promptOnPage(root?.prompts, pathname, search) !== "timeBonus") return null;
  const countdown = formatCountdown(left);
  const close = () => {
    localStorage.setItem(HIDE_TIME_BONUS_MODAL, String(Date.now()));
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
            <strong>{t("timeBonus.banner", { percentage: TIME_BONUS_PERCENTAGE })}</strong> {t("timeBonus.endsIn")}{" "}
            <span className="time-bonus-countdown" role="timer" data-testid="time-bonus-countdown">
              {countdown}
            </span>
          </span>
          <Link to="/credits" className="btn btn-primary btn-sm">
            {t("timeBonus.action")}
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
              -{TIME_BONUS_PERCENTAGE}%
            </div>
            <h2 id="time-bonus-title">{t("timeBonus.modalTitle", { percentage: TIME_BONUS_PERCENTAGE })}</h2>
            <p id="time-bonus-body">
              {t("timeBonus.actFast", { hours: TIME_BONUS_ACT_FAST_VALUE, percentage: TIME_BONUS_PERCENTAGE })}
            </p>
            <p className="time-bonus-modal-countdown" role="timer">
              {countdown}
            </p>
            <div className="modal-actions">
              <Link to="/credits" className="btn btn-primary" onClick={close} autoFocus>
                {t("timeBonus.action")}
              </Link>
              <button type="button" className="btn btn-link" onClick={close} data-testid="time-bonus-close">
                {t("timeBonus.close")}
              </button>
            </div>
          </div>
        </div>
      ) : null}
    </>
  );
}
