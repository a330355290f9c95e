/** /settings/my-data: everything stored about the member as a page to read, beside the JSON download (GDPR right of access). */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { pageContext } from "~/lib/page.server";
import { exportMemberData } from "~/models/accounts/export.server";
import { exportView } from "~/models/data-export.server";
import { requireMember } from "~/models/session.server";
import { useTranslation } from "~/lib/i18n-react";
import accountStyles from "~/styles/account.css";

export const handle = { i18n: ["common", "account"] };
export const links = () => [{ rel: "stylesheet", href: accountStyles }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const [{ lng, t }, data] = await Promise.all([
    pageContext(request, context, "account"),
    exportMemberData(context.env, member.id),
  ]);
  return { title: t("data.title"), ...exportView(data, lng, t) };
}

export default function MyData() {
  const { t } = useTranslation("account");
  const { exportedAt, sections } = useLoaderData<typeof loader>();
  return (
    <div className="container account-page data-export">
      <p>
        <Link to="/settings">← {t("settings.title")}</Link>
      </p>
      <h1>{t("data.title")}</h1>
      <p className="lead">{t("data.intro", { date: exportedAt })}</p>
      <p>
        <a href="/settings/data" download className="btn btn-primary">
          {t("data.download")}
        </a>
      </p>
      <nav aria-label={t("data.contents")}>
        <ul className="data-export-toc">
          {sections.map((s) => (
            <li key={s.key}>
              <a href={`#${s.key}`}>
                {s.title} ({s.rows.length})
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {sections.map((s) => (
        <section key={s.key} id={s.key} className="card card-body data-export-section">
          <h2>{s.title}</h2>
          {s.rows.length === 0 ? (
            <p className="text-muted">{t("data.none")}</p>
          ) : (
            s.rows.map((row, i) => (
              <dl key={i} className="data-export-row">
                {row.map(([field, value]) => (
                  <div key={field}>
                    <dt>
                      <code>{field}</code>
                    </dt>
                    <dd>{value}</dd>
                  </div>
                ))}
              </dl>
            ))
          )}
        </section>
      ))}
    </div>
  );
}
