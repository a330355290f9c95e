/** Member search: a GET form (works without JavaScript), paged results, similar results when few match. */
import { redirect, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/lib/i18n-react";
import { useRegions, type RegionOption } from "~/components/members/useRegions";
import { pageContext } from "~/lib/page.server";
import { getMember } from "~/models/session.server";
import {
  resolveFilters,
  searchMembers,
  searcherOf,
  visitorMaySearch,
  wantedGender,
  type SearchFilters,
} from "~/models/search.server";
import { AGES, DISTANCES } from "~/models/profile-options";
import { MemberGrid } from "~/components/members/MemberCard";
import { countryName } from "~/components/members/labels";
import styles from "~/styles/members.css";
import { WelcomeOffer } from "~/components/offers/WelcomeOffer";
import { CamsPromo } from "~/components/promo/CamsPromo";
import { camsPromoShown } from "~/models/cams-promo.server";
import promoStyles from "~/styles/promo.css";

export const handle = { i18n: ["common", "members", "offers"] };
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "stylesheet", href: promoStyles },
];

/** The cams promo block goes after this many results (two rows on a phone, one on a wide screen). */
const PROMO_AFTER = 4;
/** The faces on the first screen (a row of four on desktop, two rows of two on a phone): not lazy. */
const FIRST_SCREEN_FACES = 4;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const [{ brand, t, lng, country }, member] = await Promise.all([
    pageContext(request, context, "members"),
    getMember(request, context),
  ]);
  if (!member && !visitorMaySearch(brand, url.searchParams)) {
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  const me = member ? searcherOf(member) : null;
  const fallbackCountry = brand.countries.includes(country) ? country : (brand.countries[0] ?? "NL");
  // The member's position counts only in their own country (nearest first, the distance filter).
  const filters = resolveFilters(
    url.searchParams,
    {
      gender: me ? wantedGender(me.gender, me.sexuality) : undefined,
      country: me && brand.countries.includes(me.country) ? me.country : fallbackCountry,
      countries: brand.countries,
      age: me?.age ?? null,
    },
    me?.origin ?? null,
  );
  const origin = me && me.country === filters.country ? me.origin : null;
  const result = await searchMembers(context.env.DB, filters, member?.id ?? null, lng, origin);
  const countries = brand.countries
    .map((code) => ({ code, name: countryName(code, lng) }))
    .sort((a, b) => a.name.localeCompare(b.name, lng));
  const camsPromo = camsPromoShown(brand, { member, country, placement: "search" });
  return { title: t("search.title"), filters, ...result, countries, camsPromo, located: !!origin };
}

export default function Search() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("members");
  const [params] = useSearchParams();
  const f = data.filters;
  const pageLink = (page: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(page));
    return `?${next}`;
  };
  return (
    <>
      <WelcomeOffer />
      <div className="container members-page">
        <h1>{t("search.title")}</h1>
        <FilterForm
          key={JSON.stringify(f)}
          filters={f}
          countries={data.countries}
          regions={data.regions}
          located={data.located}
        />

        <p className="search-count" role="status">
          {data.capped
            ? t("search.countCapped", { count: data.numResults })
            : t("search.count", { count: data.numResults })}
        </p>
        {data.camsPromo ? (
          <>
            <MemberGrid members={data.results.slice(0, PROMO_AFTER)} eager={FIRST_SCREEN_FACES} />
            <CamsPromo placement="search" />
            {data.results.length > PROMO_AFTER ? <MemberGrid members={data.results.slice(PROMO_AFTER)} /> : null}
          </>
        ) : (
          <MemberGrid members={data.results} eager={FIRST_SCREEN_FACES} />
        )}

        {data.pages > 1 ? (
          <nav className="pager" aria-label={t("search.pages")}>
            {f.page > 1 ? (
              <Link to={pageLink(f.page - 1)} rel="prev">
                {t("search.previous")}
              </Link>
            ) : (
              <span />
            )}
            <span>{t("search.pageOf", { page: f.page, pages: data.pages })}</span>
            {f.page < data.pages ? (
              <Link to={pageLink(f.page + 1)} rel="next">
                {t("search.next")}
              </Link>
            ) : (
              <span />
            )}
          </nav>
        ) : null}

        {data.similar_results.length ? (
          <section>
            <h2>{t("search.similar")}</h2>
            <MemberGrid members={data.similar_results} />
          </section>
        ) : null}
      </div>
    </>
  );
}

/**
 * The filter form, folded behind its summary (the current filters) so a phone shows profiles on its
 * first screen; open on wide screens (members.css). The region list follows the chosen country.
 */
function FilterForm({
  filters: f,
  countries,
  regions,
  located,
}: {
  filters: SearchFilters;
  countries: { code: string; name: string }[];
  regions: RegionOption[];
  /** The member has a position (their city) in the searched country: the distance filter works. */
  located: boolean;
}) {
  const { t } = useTranslation("members");
  const [country, setCountry] = useState(f.country);
  const countryRegions = useRegions(country, { country: f.country, regions });
  const summary = [
    t(`values.gender.${f.gender}`),
    countries.find((c) => c.code === f.country)?.name,
    regions.find((r) => r.code === f.countryregion)?.name,
    `${f.min_age}–${f.max_age}`,
    f.online ? t("search.onlineNow") : null,
    f.photo ? t("search.withPhoto") : null,
    f.distance ? t("finder.km", { km: f.distance }) : null,
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <details className="search-filters">
      <summary className="btn btn-outline search-filters-toggle">
        <span>{t("search.filters")}</span>
        <small className="search-filters-summary">{summary}</small>
      </summary>
      <Form method="get" className="card search-form">
        <label className="field">
          <span>{t("search.gender")}</span>
          <select name="gender" defaultValue={f.gender}>
            <option value="female">{t("values.gender.female")}</option>
            <option value="male">{t("values.gender.male")}</option>
          </select>
        </label>
        <label className="field">
          <span>{t("search.country")}</span>
          <select name="country" value={country} onChange={(e) => setCountry(e.target.value)}>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t("search.region")}</span>
          <select name="countryregion" key={country} defaultValue={country === f.country ? f.countryregion : ""}>
            <option value="">{t("search.anyRegion")}</option>
            {countryRegions.map((r) => (
              <option key={r.code} value={r.code}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field field-age">
          <span>{t("search.minAge")}</span>
          <select name="min_age" defaultValue={f.min_age}>
            {AGES.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label className="field field-age">
          <span>{t("search.maxAge")}</span>
          <select name="max_age" defaultValue={f.max_age}>
            {AGES.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t("finder.distance")}</span>
          <select name="distance" defaultValue={f.distance ?? ""} disabled={!located}>
            <option value="">{t("finder.anyDistance")}</option>
            {DISTANCES.map((km) => (
              <option key={km} value={km}>
                {t("finder.km", { km })}
              </option>
            ))}
          </select>
          {located ? null : <small className="field-hint">{t("finder.setLocation")}</small>}
        </label>
        <div className="search-checks">
          <label className="field-check">
            <input type="checkbox" name="online" value="1" defaultChecked={f.online} />
            <span>{t("search.onlineNow")}</span>
          </label>
          <label className="field-check">
            <input type="checkbox" name="photo" value="1" defaultChecked={f.photo} />
            <span>{t("search.withPhoto")}</span>
          </label>
        </div>
        <button type="submit" className="btn btn-primary">
          {t("search.submit")}
        </button>
      </Form>
    </details>
  );
}
