/**
 * What a logged-in member's pages add once JavaScript runs, loaded lazily by AppShell (never on a
 * visitor's landing page): the alerts that depend on this browser (push, profile photo, disabled
 * notifications: docs/product/states.md §4), the page-hidden beacon (online status), the service worker's
 * messages (a push arrived; a notification was clicked: openUrl) and the auto-like after sign-up
 * (likes reloaded after 500 ms).
 *
 * Those alerts are known only after hydration (push state, localStorage dismissals), so they never
 * push the page down (decision 151): they come together, once all is known, in one stack at
 * the end of the page that sticks to the bottom of the screen (AppShell places it after the layout).
 */
import { Link, useLocation, useNavigate, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/lib/i18n-react";
import { apiFetch } from "~/lib/api-client";
import { AUTO_LIKE_RELOAD_DELAY_MS } from "~/lib/constants";
import { promptOnPage } from "~/lib/member-alerts";
import type { RootData } from "~/lib/root-data";
import { PushSetup, usePushState } from "./PushSetup";
import { HIDE_ENRICH_ALERT, ProfilePhotoAlert } from "../alerts/ProfilePhotoAlert";

export const HIDE_PUSH_ALERT = "hide-push-notification-alert";
export const HIDE_DISABLED_ALERT = "hide-disabled-notifications-alert";
const AUTO_LIKE_DONE = "auto-like-done";

export type ExtrasMember = { notificationsDisabled: string[]; hasMainImage: boolean };

export function MemberExtras({ member, alerts }: { member: ExtrasMember; alerts: boolean }) {
  usePresenceBeacon();
  useServiceWorkerMessages();
  useAutoLikeAfterSignup();
  return alerts ? <LateAlerts member={member} /> : null;
}

/** The browser-dependent alerts, all at once (none appears later and moves another) or none yet. */
function LateAlerts({ member }: { member: ExtrasMember }) {
  const { t, ready } = useTranslation(["notify", "members"], { useSuspense: false });
  const { pathname, search } = useLocation();
  const prompts = useRouteLoaderData<RootData>("root")?.prompts;
  const [pushState, setPushState] = usePushState();
  const [pushDismissed, dismissPush] = useDismissed(HIDE_PUSH_ALERT);
  const [photoDismissed, dismissPhoto] = useDismissed(HIDE_ENRICH_ALERT);
  const [disabledDismissed, dismissDisabled] = useDismissed(HIDE_DISABLED_ALERT);
  if (!ready || pushState === null) return null;
  // One member prompt at a time, chosen by the server (decision 179); a dismissed one leaves none.
  const prompt = promptOnPage(prompts, pathname, search);
  const push = prompt === "push" && pushState === "unknown" && !pushDismissed;
  const photo = prompt === "photo" && !member.hasMainImage && !photoDismissed;
  const disabled = prompt === "disabledNotifications" && member.notificationsDisabled.length > 0 && !disabledDismissed;
  if (!push && !photo && !disabled) return null;
  return (
    <div className="late-alerts" data-testid="late-alerts">
      {push ? (
        <div className="alert alert-info alert-banner push-alert" role="status" data-testid="push-alert">
          <div className="container alert-banner-inner">
            <span>{t("notify:push.alert")}</span>
            <PushSetup small known={pushState} onDone={setPushState} />
            <button type="button" className="btn btn-link btn-sm" onClick={dismissPush}>
              {t("notify:push.dismiss")}
            </button>
          </div>
        </div>
      ) : null}
      {photo ? <ProfilePhotoAlert t={t} onDismiss={dismissPhoto} /> : null}
      {disabled ? (
        <div className="alert alert-warning alert-banner" role="status" data-testid="disabled-notifications-alert">
          <div className="container alert-banner-inner">
            <span>{t("notify:disabledAlert.text")}</span>
            <Link to="/notifications" className="btn btn-primary btn-sm">
              {t("notify:disabledAlert.action")}
            </Link>
            <button type="button" className="btn btn-link btn-sm" onClick={dismissDisabled}>
              {t("notify:disabledAlert.dismiss")}
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

function useDismissed(key: string) {
  const [dismissed, setDismissed] = useState(() => !!localStorage.getItem(key));
  const dismiss = () => {
    localStorage.setItem(key, String(Date.now()));
    setDismissed(true);
  };
  return [dismissed, dismiss] as const;
}

/** docs/product/api.md §7: the page went hidden, the member counts as offline (a request brings them back). */
function usePresenceBeacon() {
  useEffect(() => {
    const onChange = () => {
      if (document.visibilityState !== "hidden") return;
      navigator.sendBeacon?.("/api/page-hidden.php", new Blob(["{}"], { type: "text/plain" }));
    };
    document.addEventListener("visibilitychange", onChange);
    return () => document.removeEventListener("visibilitychange", onChange);
  }, []);
}

/** public/sw.js tells the page about a push (re-fetch the counts) and a click on one (openUrl: go there). */
function useServiceWorkerMessages() {
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const handlers = useRef({ navigate, revalidate });
  handlers.current = { navigate, revalidate };
  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    const onMessage = (e: MessageEvent) => {
      const data = e.data as { type?: string; url?: string } | null;
      if (data?.type === "openUrl" && data.url) {
        const url = new URL(data.url, location.origin);
        if (url.origin === location.origin) handlers.current.navigate(url.pathname + url.search);
      } else if (data?.type === "push" || data?.type === "checkUrl") {
        handlers.current.revalidate();
      }
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    return () => navigator.serviceWorker.removeEventListener("message", onMessage);
  }, []);
}

/** docs/product/states.md §4 and docs/product/api.md §7: once after sign-up, the auto-like call; the likes are reloaded 500 ms later. */
function useAutoLikeAfterSignup() {
  const { pathname } = useLocation();
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (pathname !== "/signup-matches" || sessionStorage.getItem(AUTO_LIKE_DONE)) return;
    sessionStorage.setItem(AUTO_LIKE_DONE, "1");
    let timer: ReturnType<typeof setTimeout> | undefined;
    apiFetch("/api/auto-like.php")
      // The body is read to its end: an unread one keeps the request open in the browser.
      .then((res) => res.arrayBuffer())
      .then(() => {
        timer = setTimeout(revalidate, AUTO_LIKE_RELOAD_DELAY_MS);
      })
      .catch(() => {});
    return () => clearTimeout(timer);
  }, [pathname, revalidate]);
}
