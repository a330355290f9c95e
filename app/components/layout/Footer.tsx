import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import type { RootData } from "~/root";

export const FOOTER_LINKS = [
  ["terms", "/pages/terms"],
  ["privacy", "/pages/privacy"],
  ["cookies", "/pages/cookies"],
  ["ban", "/pages/ban"],
  ["pricing", "/pricing"],
  ["complaints", "/complaints"],
  ["returnPolicy", "/pages/return-policy"],
  ["faq", "/pages/faq"],
  ["service", "/pages/service"],
] as const;

export function Footer({ root }: { root: RootData }) {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  const showUsFooter = root.country === "US" && root.lang === "en";
  return (
    <footer className="footer">
      <div className="container">
        <nav aria-label={t("footer.nav")} className="footer-links">
          {FOOTER_LINKS.map(([key, to]) => (
            <Link key={key} to={to}>{t(`footer.${key}`)}</Link>
          ))}
        </nav>
        <p className="disclaimer" data-testid="disclaimer">
          {t("footer.disclaimer", { brand: root.brand.name, minAge: root.brand.minAge })}
        </p>
        {showUsFooter ? (
          <p className="us-footer" data-testid="us-footer">
            <Link to="/pages/compliance">18 U.S.C. 2257 Record-Keeping Requirements Compliance Statement</Link>
          </p>
        ) : null}
        <p className="copyright">
          © {year} {root.brand.name} · {root.brand.company.name}, {root.brand.company.address}, {root.brand.company.city}
        </p>
      </div>
    </footer>
  );
}
