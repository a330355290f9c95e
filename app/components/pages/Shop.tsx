/** Building blocks of the shop screens: packages, payment methods and the "checkout not yet" notice. */
import { Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { useWalletMethods } from "~/components/payments/wallets";
import pagesStyles from "~/styles/pages.css";
import { MethodBadge } from "../payments/MethodBadge";

/** The package most members buy, marked on the credits and premium pages. */
const MOST_POPULAR = "p1";

export const shopHandle = { i18n: ["common", "shop", "offers"] };
export const shopLinks = () => [{ rel: "stylesheet", href: pagesStyles }];

export interface PackageView {
  id: string;
  tier: string;
  credits: number;
  price: string;
  perCredit: string;
  /** The price before a discount, shown struck through; null without one. */
  was?: string | null;
  /** The try-out package (once per member), named as such rather than by its tier. */
  oneTime?: boolean;
}

export function packageName(t: (key: string) => string, p: Pick<PackageView, "tier" | "oneTime">) {
  return p.oneTime ? t("offers:tryout.name") : t(`shop:tiers.${p.tier}`);
}

/**
 * `popular`: the label of the ribbon on the most bought package (p1), when the page shows one.
 * `level`: the package names' heading level, one below the section they are in (h2 right under the page's h1).
 */
export function PackageGrid({
  packages,
  linkTo,
  popular,
  level = 3,
}: {
  packages: PackageView[];
  linkTo?: (id: string) => string;
  popular?: string;
  level?: 2 | 3;
}) {
  const Name = level === 2 ? "h2" : "h3";
  const { t } = useTranslation("shop");
  return (
    <ul className="package-grid" data-testid="packages">
      {packages.map((p) => (
        <li
          key={p.id}
          className={`card package package-${p.tier}${popular && p.tier === MOST_POPULAR ? " package-popular" : ""}`}
        >
          {popular && p.tier === MOST_POPULAR ? (
            <span className="badge badge-primary package-ribbon">{popular}</span>
          ) : null}
          <Name className="package-name">{packageName(t, p)}</Name>
          <p className="package-credits">{t("package.credits", { count: p.credits })}</p>
          <p className="package-price">
            {p.was ? (
              <>
                <s className="price-was" data-testid="price-was">
                  {p.was}
                </s>{" "}
                <span className="price-now" data-testid="price-now">
                  {p.price}
                </span>
              </>
            ) : (
              p.price
            )}
          </p>
          <p className="package-per-credit">{t("package.perCredit", { price: p.perCredit })}</p>
          {linkTo ? (
            <Link
              to={linkTo(p.id)}
              className="btn btn-primary btn-block"
              aria-label={t("package.chooseLabel", { name: packageName(t, p) })}
            >
              {t("package.choose")}
            </Link>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export function PaymentMethods({
  methods,
  selected,
  linkTo,
  images,
}: {
  methods: readonly string[];
  selected?: string;
  /** Each method's page; it keeps the scroll where the member tapped (with JavaScript) or lands on its #anchor. */
  linkTo?: (m: string) => string;
  /** The provider's logos, by method, where its method list gives them. */
  images?: Record<string, string>;
}) {
  const { t } = useTranslation("shop");
  const shown = useWalletMethods(methods);
  return (
    <ul className="method-list" data-testid="payment-methods">
      {shown.map((m) => (
        <li key={m} className={m === selected ? "method method-selected" : "method"}>
          {linkTo ? (
            <Link to={linkTo(m)} aria-current={m === selected ? "true" : undefined} preventScrollReset>
              <MethodBadge method={m} image={images?.[m]} />
              <span className="method-name">{t(`methods.${m}`)}</span>
            </Link>
          ) : (
            <span>
              <MethodBadge method={m} image={images?.[m]} />
              <span className="method-name">{t(`methods.${m}`)}</span>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Said plainly: nothing can be bought yet, so nothing pretends to be bought. */
export function CheckoutUnavailable() {
  const { t } = useTranslation("shop");
  return (
    <p className="alert alert-info" role="status" data-testid="checkout-unavailable">
      {t("unavailable")}
    </p>
  );
}

export function ShopPage({ title, lead, children }: { title: string; lead?: string; children: React.ReactNode }) {
  return (
    <div className="container page shop-page">
      <header className="page-header">
        <h1>{title}</h1>
        {lead ? <p className="page-intro">{lead}</p> : null}
      </header>
      {children}
    </div>
  );
}
