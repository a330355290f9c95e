import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import type { Niche } from "~/lib/constants";
import { Icon, type IconName } from "~/components/Icon";
import { HeroArt } from "~/components/landing/HeroArt";
import { SignupForm } from "~/components/account/SignupForm";
import accountStyles from "~/styles/account.css";
import type { landingPageLoader as loader } from "~/models/landing-page.server";
import { closedSignupKeys } from "~/models/signup-rules";

// The loader lives in models/landing-page.server (one server import: see there why).
export { landingPageLoader as loader } from "~/models/landing-page.server";

export const handle = { i18n: ["common", "landing"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? [
        { name: "description", content: data.description },
        { property: "og:title", content: data.title },
      ]
    : [];

const BENEFIT_ICONS: Record<Niche, [IconName, IconName, IconName]> = {
  general: ["pin", "chat", "shield"],
  she: ["users", "chat", "eye"],
  bdsm: ["lock", "flame", "users"],
  bbw: ["heart", "camera", "shield"],
  gilf: ["star", "chat", "shield"],
  milf: ["flame", "eye", "bolt"],
  gay: ["users", "pin", "lock"],
};

function SignupCard({ data }: { data: ReturnType<typeof useLoaderData<typeof loader>> }) {
  const { t } = useTranslation("landing");
  if (data.signupState !== "open") {
    const closed = closedSignupKeys(data.signupState);
    return (
      <div className="signup-card" id="signup">
        <h2>{t(closed.title)}</h2>
        <p className="text-muted">{t(closed.text)}</p>
        <Link to="/login" className="btn btn-primary btn-block btn-lg">
          {t("signup.login")}
        </Link>
      </div>
    );
  }
  return (
    <div className="signup-card" id="signup">
      <h2>{t("signup.title")}</h2>
      <p className="text-muted text-small">{t("signup.subtitle")}</p>
      <SignupForm
        minAge={data.minAge}
        tracking={data.tracking}
        who={data.who}
        idPrefix="landing-signup"
        className="signup-form"
      />
    </div>
  );
}

export default function Landing() {
  const data = useLoaderData<typeof loader>();
  const { niche, members } = data;
  const { t } = useTranslation("landing");
  const icons = BENEFIT_ICONS[niche];
  return (
    <div className={`landing niche-${niche}`} data-niche={niche}>
      <section className="hero">
        <HeroArt niche={niche} />
        <div className="container hero-inner">
          <div>
            {/* No green "online" dot: the page does not know who is online (decision 179). */}
            <p className="hero-kicker">{t(`${niche}.kicker`)}</p>
            <h1>{t(`${niche}.headline`)}</h1>
            <p className="lead">{t(`${niche}.lead`)}</p>
            <ul className="hero-points">
              {data.points.map((k) => (
                <li key={k}>
                  <Icon name="check" size={18} />
                  {t(`points.${k}`)}
                </li>
              ))}
            </ul>
          </div>
          <SignupCard data={data} />
        </div>
      </section>

      {members.length > 0 ? (
        <section className="section member-strip" aria-labelledby="members-title">
          <div className="container">
            <div className="section-title">
              <h2 id="members-title">{t(data.near ? "members.recentNear" : "members.onlineNow")}</h2>
              <p>{t("members.subtitle")}</p>
            </div>
            <ul className="member-grid" data-testid="landing-members">
              {members.map((m) => (
                <li key={m.id} className="member-card">
                  <div className="member-card-photo">
                    <img src={`/photos/${m.photoId}/thumb`} alt="" loading="lazy" width={240} height={240} />
                  </div>
                  <div className="member-card-body">
                    <p className="member-card-name">{`${m.name}, ${m.age}`}</p>
                    {m.city ? (
                      // No online dot: the strip shows recently active members, not who is online (decision 179).
                      <p className="member-card-meta">{m.city}</p>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}

      <section className="section section-alt" aria-labelledby="benefits-title">
        <div className="container">
          <div className="section-title">
            <h2 id="benefits-title">{t("benefitsTitle")}</h2>
          </div>
          <ul className="benefits">
            {([1, 2, 3] as const).map((n, i) => (
              <li key={n} className="card benefit">
                <span className="benefit-icon" aria-hidden="true">
                  <Icon name={icons[i]!} size={26} />
                </span>
                <h3>{t(`${niche}.b${n}Title`)}</h3>
                <p>{t(`${niche}.b${n}Text`)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section" aria-labelledby="how-title">
        <div className="container">
          <div className="section-title">
            <h2 id="how-title">{t("how.title")}</h2>
          </div>
          <ol className="steps">
            {([1, 2, 3] as const).map((n) => (
              <li key={n} className="step">
                <h3>{t(`how.s${n}Title`)}</h3>
                <p>{t(`how.s${n}Text`)}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section" aria-labelledby="trust-title">
        <div className="container">
          <h2 id="trust-title" className="visually-hidden">
            {t("trust.title")}
          </h2>
          <div className="trust">
            {(
              [
                ["shield", 1],
                ["lock", 2],
                ["eye", 3],
              ] as const
            ).map(([icon, n]) => (
              <div key={n} className="trust-item">
                <Icon name={icon} size={26} />
                <div>
                  <h3>{t(`trust.t${n}Title`)}</h3>
                  <p>{t(`trust.t${n}Text`, { minAge: data.minAge })}</p>
                </div>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section className="section section-alt" aria-labelledby="faq-title">
        <div className="container">
          <div className="section-title">
            <h2 id="faq-title">{t("faq.title")}</h2>
          </div>
          <div className="faq">
            {([1, 2, 3] as const).map((n) => (
              <details key={n} className="card">
                <summary>{t(`faq.q${n}`, { minAge: data.minAge })}</summary>
                <p>{t(`faq.a${n}`, { minAge: data.minAge })}</p>
              </details>
            ))}
          </div>
          <p className="faq-more">
            <Link to="/pages/faq" className="btn btn-outline">
              {t("faq.more")}
            </Link>
          </p>
        </div>
      </section>

      <section className="cta-band">
        <div className="container">
          <h2>{t(`${niche}.ctaTitle`)}</h2>
          {/* "Joining takes less than a minute" only where this visitor can join. */}
          {data.signupOpen ? <p>{t("ctaText")}</p> : null}
          {data.signupOpen ? (
            <a href="#signup" className="btn btn-light btn-lg">
              {t("cta")}
            </a>
          ) : (
            <Link to="/login" className="btn btn-light btn-lg">
              {t("signup.login")}
            </Link>
          )}
        </div>
      </section>
    </div>
  );
}
