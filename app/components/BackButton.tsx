import { useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/i18n-react";
import { Icon } from "./Icon";

const BACK_ROUTES = [/^\/profile/, /^\/likes/, /^\/credits/, /^\/directdebit/, /^\/transactions/, /^\/premium/];

/** Only in the installed web app (no browser chrome), on profile, likes, credits and payment routes. */
export function BackButton() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [installed, setInstalled] = useState(false);
  useEffect(() => setInstalled(window.matchMedia("(display-mode: standalone)").matches), []);
  if (!installed || !BACK_ROUTES.some((r) => r.test(pathname))) return null;
  return (
    <button type="button" className="btn-icon" onClick={() => navigate(-1)} aria-label={t("nav.back")}>
      <Icon name="back" />
    </button>
  );
}
