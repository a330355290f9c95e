import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import type { RootData } from "~/lib/root-data";

export function Footer({ root }: { root: RootData }) {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  // docs/product/screens.md §2: the United States footer only for visitors from the US reading English.
  const showUsFooter = root.country === "US" && root.lang === "en";
  const { brand } = root;
  return (
    <footer className="footer">
      <div className="container">
        <div className="footer-top">
          <div>
            <p className="brand" aria-hidden="true">
              <span className="brand-mark">♥</span>
              <span className="brand-name">{brand.name}</span>
            </p>
            <p className="footer-contact">
              {t("footer.contact")} <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>
              {" · "}
              <a href={`tel:${brand.supportPhoneClean}`}>{brand.supportPhone}</a>
            </p>
          </div>
          <nav aria-label={t("footer.nav")} className="footer-links">
            {brand.footerLinks.map(([key, to]) => (
              <Link key={key} to={to}>
                {t(`footer.${key}`)}
              </Link>
            ))}
          </nav>
        </div>
        <p className="disclaimer" data-testid="disclaimer">
          {t("footer.disclaimer", { brand: brand.name, minAge: brand.minAge })}
        </p>
        {showUsFooter ? (
          <p className="us-footer" data-testid="us-footer">
            <Link to="/pages/compliance">{t("footer.usCompliance")}</Link>
          </p>
        ) : null}
        <p className="copyright">
          © {year} {brand.name} · {brand.company.name}, {brand.company.address}, {brand.company.city}
        </p>
      </div>
    </footer>
  );
}
