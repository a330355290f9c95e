import { useLocation, useMatches } from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState, type ComponentType } from "react";
import type { RootData } from "~/lib/root-data";
import { TopBar, BrandBar } from "./TopBar";
import { Footer } from "./Footer";
import { SiteEntryModal } from "../SiteEntryModal";
import { LoadingBar } from "../LoadingBar";
import { layoutOf, shouldShowSiteEntry } from "~/lib/site-entry";
import { AccountAlerts } from "../alerts/AccountAlerts";

/**
 * details/summary dropdowns work without JavaScript; with it they also close like menus do: on a click
 * outside, on Escape (focus back on the summary) and after a navigation.
 */
function useDropdownDismiss() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    const openMenus = () => [...document.querySelectorAll<HTMLDetailsElement>("details.dropdown[open]")];
    const onClick = (e: MouseEvent) => {
      for (const d of openMenus()) if (!d.contains(e.target as Node)) d.open = false;
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      for (const d of openMenus()) {
        d.open = false;
        d.querySelector("summary")?.focus();
      }
    };
    document.addEventListener("click", onClick);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("click", onClick);
      document.removeEventListener("keydown", onKey);
    };
  }, []);
  // Close menus after a navigation, but not on the first render: a menu opened while the page was
  // still hydrating stays open.
  const location = `${pathname}${search}`;
  const shownAt = useRef(location);
  useEffect(() => {
    if (shownAt.current === location) return;
    shownAt.current = location;
    for (const d of document.querySelectorAll<HTMLDetailsElement>("details.dropdown[open]")) d.open = false;
  }, [location]);
}
// Members only, and none renders anything on the server: mounted for members after hydration, so
// a visitor of the landing page does not download them (docs/architecture/budgets.md §6, the 100 KB budget).
const LiveCounts = lazy(() => import("../LiveCounts").then((m) => ({ default: m.LiveCounts })));
const LikeModal = lazy(() => import("../members/LikeModal").then((m) => ({ default: m.LikeModal })));

type Extras = ComponentType<{ member: NonNullable<RootData["member"]>; alerts: boolean }>;

/**
 * A member's extras (push and notification alerts, presence, service worker messages), loaded lazily.
 * `hydrated` turns true after hydration: the lazy parts mount only then, so the server's HTML holds no
 * boundary of theirs that hydration would wait on (an update reaching one fails, React error 421).
 */
function useMemberExtras(loggedIn: boolean) {
  const [Extras, setExtras] = useState<Extras | null>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    setHydrated(true);
    if (loggedIn) import("../notify/MemberExtras").then((m) => setExtras(() => m.MemberExtras)).catch(() => {});
  }, [loggedIn]);
  return { Extras, hydrated };
}

/** The four layouts of docs/product/screens.md §2, chosen by the leaf route's `handle.layout`. */
export function AppShell({ root, children }: { root: RootData; children: React.ReactNode }) {
  useDropdownDismiss();
  const layout = layoutOf(useMatches());
  const { Extras, hydrated } = useMemberExtras(!!root.member);
  const member = hydrated ? root.member : null;
  const showEntry = shouldShowSiteEntry({
    enabled: root.brand.enableSiteEntryPopup,
    countries: root.brand.siteEntryCountries,
    country: root.country,
    layout,
    loggedIn: !!root.member,
    skipped: root.siteEntrySkipped,
  });
  const entry = showEntry ? <SiteEntryModal brandName={root.brand.name} minAge={root.brand.minAge} /> : null;

  if (layout === "chat" || layout === "empty") {
    return (
      <div className={`layout layout-${layout}`}>
        <LoadingBar />
        {layout === "chat" ? <TopBar root={root} compact /> : null}
        <main id="main" className="layout-main">
          {children}
        </main>
        {entry}
        {member ? (
          <Suspense fallback={null}>
            <LiveCounts member={member} />
          </Suspense>
        ) : null}
        {Extras && root.member ? <Extras member={root.member} alerts={false} /> : null}
      </div>
    );
  }
  if (layout === "lander") {
    return (
      <div className="layout layout-lander">
        <LoadingBar />
        <BrandBar root={root} />
        <main id="main" className="layout-main">
          {children}
        </main>
        <Footer root={root} />
        {entry}
      </div>
    );
  }
  return (
    <>
      <div className={`layout layout-default${root.member ? " layout-member" : ""}`}>
        <LoadingBar />
        <TopBar root={root} />
        <AccountAlerts root={root} />
        <main id="main" className="layout-main">
          {children}
        </main>
        <Footer root={root} />
        {entry}
        {member ? (
          <Suspense fallback={null}>
            <LikeModal loggedIn />
            <LiveCounts member={member} />
          </Suspense>
        ) : null}
      </div>
      {/* After the layout, not above <main>: they arrive after hydration and must move nothing that is
          on screen (decision 151); the stack sticks to the bottom of the screen (app.css .late-alerts). */}
      {Extras && root.member ? <Extras member={root.member} alerts /> : null}
    </>
  );
}
