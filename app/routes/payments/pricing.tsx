import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { creditCosts, listPackages } from "~/models/shop.server";
import { PackageGrid, ShopPage, shopHandle, shopLinks } from "~/components/pages/Shop";

/** Public price list: the packages, what costs credits, and the minimum message cost per country. */
export const handle = shopHandle;
export const links = shopLinks;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { brand, lng, t } = await pageContext(request, context, "shop");
  const packages = await listPackages(context, lng, brand);
  return { title: t("pricing.title"), brand: brand.name, packages, costs: creditCosts(brand, lng) };
}

export default function Pricing() {
  const { packages, costs, brand } = useLoaderData<typeof loader>();
  const { t } = useTranslation("shop");
  return (
    <ShopPage title={t("pricing.title")} lead={t("pricing.lead", { brand })}>
      <section className="page-section">
        <h2>{t("pricing.packages")}</h2>
        <PackageGrid packages={packages} />
      </section>
      <section className="page-section">
        <h2>{t("pricing.whatCosts")}</h2>
        <ul className="cost-list" data-testid="credit-costs">
          <li>{t("pricing.message", { count: costs.message })}</li>
          <li>{t("pricing.gift", { count: costs.gift })}</li>
          <li>{t("pricing.photo", { count: costs.photo })}</li>
        </ul>
        <p>{t("pricing.free")}</p>
      </section>
      <section className="page-section">
        <h2>{t("pricing.perCountry")}</h2>
        <p>{t("pricing.perCountryLead")}</p>
        <div className="table-wrap">
          <table className="table" data-testid="message-costs">
            <thead>
              <tr>
                <th scope="col">{t("pricing.country")}</th>
                <th scope="col">{t("pricing.minimumCost")}</th>
              </tr>
            </thead>
            <tbody>
              {costs.countries.map((c) => (
                <tr key={c.code}>
                  <td>{c.name}</td>
                  <td>{t("package.credits", { count: c.credits })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </ShopPage>
  );
}
