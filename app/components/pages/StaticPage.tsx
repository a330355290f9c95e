/** One layout for every legal and help page: title, intro, sections (or an FAQ accordion), contact and company blocks. */
import type { ReactNode } from "react";
import { useLoaderData } from "@remix-run/react";
import pagesStyles from "~/styles/pages.css";

export interface Section {
  h: string;
  p?: string[];
  ul?: string[];
}

export interface StaticPageProps {
  slug: string;
  title: string;
  intro: string;
  sections: Section[];
  accordion: boolean;
  version: string | null;
  company: { title: string; rows: { label: string; value: string }[] } | null;
  contact: {
    title: string;
    lead: string;
    emailLabel: string;
    phoneLabel: string;
    postLabel: string;
    email: string;
    phone: string;
    phoneClean: string;
    post: string[];
  } | null;
  children?: ReactNode;
}

function SectionBody({ s }: { s: Section }) {
  return (
    <>
      {s.p?.map((text, i) => (
        <p key={i}>{text}</p>
      ))}
      {s.ul?.length ? (
        <ul>
          {s.ul.map((text, i) => (
            <li key={i}>{text}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

export function ContactCard({ contact }: { contact: NonNullable<StaticPageProps["contact"]> }) {
  return (
    <section className="card page-contact" aria-labelledby="page-contact-title" data-testid="contact">
      <h2 id="page-contact-title">{contact.title}</h2>
      <p>{contact.lead}</p>
      <dl className="page-dl">
        <div className="page-dl-row">
          <dt>{contact.emailLabel}</dt>
          <dd>
            <a href={`mailto:${contact.email}`}>{contact.email}</a>
          </dd>
        </div>
        <div className="page-dl-row">
          <dt>{contact.phoneLabel}</dt>
          <dd>
            <a href={`tel:${contact.phoneClean}`} data-testid="support-phone">
              {contact.phone}
            </a>
          </dd>
        </div>
        <div className="page-dl-row">
          <dt>{contact.postLabel}</dt>
          <dd>
            <address>
              {contact.post.map((line, i) => (
                <span key={i} className="page-address-line">
                  {line}
                </span>
              ))}
            </address>
          </dd>
        </div>
      </dl>
    </section>
  );
}

export function CompanyDetails({ company }: { company: NonNullable<StaticPageProps["company"]> }) {
  return (
    <section className="card page-company" aria-labelledby="page-company-title" data-testid="company">
      <h2 id="page-company-title">{company.title}</h2>
      <dl className="page-dl">
        {company.rows.map((r) => (
          <div key={r.label} className="page-dl-row">
            <dt>{r.label}</dt>
            <dd>{r.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function StaticPage(p: StaticPageProps) {
  return (
    <article className={`container page page-${p.slug}`}>
      <header className="page-header">
        <h1>{p.title}</h1>
        {p.version ? (
          <p className="page-version" data-testid="terms-version">
            {p.version}
          </p>
        ) : null}
        <p className="page-intro">{p.intro}</p>
      </header>
      {p.accordion ? (
        <div className="page-faq">
          {p.sections.map((s, i) => (
            <details key={i} className="page-faq-item">
              <summary>{s.h}</summary>
              <div className="page-faq-body">
                <SectionBody s={s} />
              </div>
            </details>
          ))}
        </div>
      ) : (
        p.sections.map((s, i) => (
          <section key={i} className="page-section">
            <h2>{s.h}</h2>
            <SectionBody s={s} />
          </section>
        ))
      )}
      {p.children}
      <div className="page-aside">
        {p.contact ? <ContactCard contact={p.contact} /> : null}
        {p.company ? <CompanyDetails company={p.company} /> : null}
      </div>
    </article>
  );
}

/** The route parts every static page shares (each route only differs in which page its loader picks). */
export const staticPageHandle = { i18n: ["common"] };
export const staticPageLinks = () => [{ rel: "stylesheet", href: pagesStyles }];
export function StaticPageRoute() {
  return <StaticPage {...(useLoaderData() as Omit<StaticPageProps, "children">)} />;
}
