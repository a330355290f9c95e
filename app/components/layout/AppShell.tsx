import { useMatches } from "@remix-run/react";
import type { RootData } from "~/root";
import { layoutOf } from "~/root";
import { TopBar, BrandBar } from "./TopBar";
import { Footer } from "./Footer";
import { SiteEntryModal } from "../SiteEntryModal";
import { LoadingBar } from "../LoadingBar";
import { LiveCounts } from "../LiveCounts";
import { shouldShowSiteEntry } from "~/lib/site-entry";
import { ProfilePhotoAlert } from "../alerts/ProfilePhotoAlert";
import { LikeModal } from "../members/LikeModal";

/** The four layouts of SPEC section 2, chosen by the leaf route's `handle.layout`. */
export function AppShell({ root, children }: { root: RootData; children: React.ReactNode }) {
  const layout = layoutOf(useMatches());
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
        <main id="main" className="layout-main">{children}</main>
        {entry}
        {root.member ? <LiveCounts member={root.member} /> : null}
      </div>
    );
  }
  if (layout === "lander") {
    return (
      <div className="layout layout-lander">
        <LoadingBar />
        <BrandBar root={root} />
        <main id="main" className="layout-main">{children}</main>
        <Footer root={root} />
        {entry}
      </div>
    );
  }
  return (
    <div className="layout layout-default">
      <LoadingBar />
      <TopBar root={root} />
      <ProfilePhotoAlert loggedIn={!!root.member} hasMainImage={!!root.member?.hasMainImage} />
      <main id="main" className="layout-main">{children}</main>
      <Footer root={root} />
      {entry}
      <LikeModal loggedIn={!!root.member} />
      {root.member ? <LiveCounts member={root.member} /> : null}
    </div>
  );
}
