import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/i18n-react";

/**
 * The site-entry (adult content) warning. The server decides whether it shows; accepting posts a
 * form that stores the skip flag with a timestamp, so it works without JavaScript and shows once.
 */
export function SiteEntryModal({ brandName, minAge }: { brandName: string; minAge: number }) {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const location = useLocation();
  const [hidden, setHidden] = useState(false);
  // The installed web app never shows it.
  useEffect(() => {
    if (window.matchMedia("(display-mode: standalone)").matches) setHidden(true);
  }, []);
  if (hidden || fetcher.state !== "idle" || fetcher.data) return null;
  return (
    <div className="modal-backdrop site-entry" data-testid="site-entry">
      <div
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="site-entry-title"
        aria-describedby="site-entry-body"
      >
        <div className="modal-icon" aria-hidden="true">
          {minAge}+
        </div>
        <h2 id="site-entry-title">{t("siteEntry.title")}</h2>
        <p id="site-entry-body">{t("siteEntry.body", { brand: brandName, minAge })}</p>
        <fetcher.Form method="post" action="/api/site-entry" className="modal-actions">
          <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
          <button type="submit" className="btn btn-primary" autoFocus>
            {t("siteEntry.enter", { minAge })}
          </button>
          <a className="btn btn-link" href="https://www.google.com" rel="noreferrer">
            {t("siteEntry.leave")}
          </a>
        </fetcher.Form>
      </div>
    </div>
  );
}
