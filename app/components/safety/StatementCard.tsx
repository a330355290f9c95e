/**
 * One statement of reasons (DSA Art. 17, decisions 167 and 173): what was restricted, the facts, the
 * rule with a link to the terms, whether automated means were used, the date and how to appeal. The
 * texts arrive translated into the member's own language (hence its `lang`).
 */
import { Link } from "@remix-run/react";

export interface StatementCardData {
  id: string;
  lang: string;
  lines: { what: string; facts: string; rule: string; automated: string; date: string };
  labels: { facts: string; rule: string; date: string; appeal: string; appealAction: string };
  /** The signed page of this decision, where it is appealed. */
  href: string;
}

/** `note` replaces the how-to-appeal line (null: none, e.g. where the appeal form or its outcome follows). */
export function StatementCard({
  s,
  appealLink = true,
  note,
}: {
  s: StatementCardData;
  appealLink?: boolean;
  note?: string | null;
}) {
  return (
    <article className="card form-card statement-card" lang={s.lang}>
      <h2 className="statement-what">{s.lines.what}</h2>
      <dl className="statement">
        <dt>{s.labels.facts}</dt>
        <dd>{s.lines.facts}</dd>
        {s.lines.rule ? (
          <>
            <dt>{s.labels.rule}</dt>
            <dd>
              <Link to="/pages/terms">{s.lines.rule}</Link>
            </dd>
          </>
        ) : null}
        <dt>{s.labels.date}</dt>
        <dd>{s.lines.date}</dd>
      </dl>
      <p>{s.lines.automated}</p>
      {note === null ? null : <p>{note ?? s.labels.appeal}</p>}
      {appealLink ? (
        <p>
          <a href={s.href} className="btn btn-outline">
            {s.labels.appealAction}
          </a>
        </p>
      ) : null}
    </article>
  );
}
