import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { nicheOf } from "~/models/brand.server";
import { pageContext } from "~/lib/page.server";

export const handle = { i18n: ["common", "landing"] };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { brand, t } = await pageContext(request, context, "landing");
  const niche = nicheOf(brand);
  return { niche, title: t(`${niche}.title`, { brand: brand.name }) };
}

export default function Landing() {
  const { niche } = useLoaderData<typeof loader>();
  const { t } = useTranslation("landing");
  return (
    <section className={`hero hero-${niche}`}>
      <div className="container">
        <h1>{t(`${niche}.headline`)}</h1>
        <p className="lead">{t(`${niche}.lead`)}</p>
        <Link to="/signup" className="btn btn-primary btn-lg">{t("cta")}</Link>
      </div>
    </section>
  );
}
