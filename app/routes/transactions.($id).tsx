import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { pageContext } from "~/lib/page.server";
import { requireMember } from "~/models/session.server";
import { getTransaction, listTransactions, type Transaction } from "~/models/shop.server";
import { ShopPage, shopHandle, shopLinks } from "~/components/pages/Shop";

/** /transactions: the member's payments; /transactions/{id}: one of their own (others' ids are a 404). */
export const handle = shopHandle;
export const links = shopLinks;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const member = await requireMember(request, context);
  const { lng, t } = await pageContext(request, context, "shop");
  if (!params.id) return { title: t("transactions.title"), list: await listTransactions(context, lng, member.id), one: null };
  const one = await getTransaction(context, lng, member.id, params.id);
  if (!one) throw new Response("Not found", { status: 404 });
  return { title: t("transactions.one", { id: one.id }), list: null, one };
}

function Detail({ tx }: { tx: Transaction }) {
  const { t } = useTranslation("shop");
  const rows: [string, string][] = [
    [t("transactions.date"), tx.date],
    [t("transactions.credits"), String(tx.credits)],
    [t("transactions.amount"), tx.amount],
    [t("transactions.fee"), tx.fee],
    [t("transactions.method"), t(`methods.${tx.method}`, { defaultValue: tx.method })],
    [t("transactions.status"), t(`status.${tx.status}`, { defaultValue: tx.status })],
  ];
  return (
    <dl className="card page-dl" data-testid="transaction">
      {rows.map(([label, value]) => (
        <div key={label} className="page-dl-row"><dt>{label}</dt><dd>{value}</dd></div>
      ))}
    </dl>
  );
}

export default function Transactions() {
  const { list, one } = useLoaderData<typeof loader>();
  const { t } = useTranslation("shop");
  if (one) {
    return (
      <ShopPage title={t("transactions.one", { id: one.id })}>
        <Detail tx={one} />
        <p><Link to="/transactions">{t("transactions.all")}</Link></p>
      </ShopPage>
    );
  }
  return (
    <ShopPage title={t("transactions.title")}>
      {list && list.length > 0 ? (
        <div className="table-wrap">
          <table className="table" data-testid="transactions">
            <thead>
              <tr>
                <th scope="col">{t("transactions.date")}</th>
                <th scope="col">{t("transactions.credits")}</th>
                <th scope="col">{t("transactions.amount")}</th>
                <th scope="col">{t("transactions.status")}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((tx) => (
                <tr key={tx.id}>
                  <td><Link to={`/transactions/${tx.id}`}>{tx.date}</Link></td>
                  <td>{tx.credits}</td>
                  <td>{tx.amount}</td>
                  <td>{t(`status.${tx.status}`, { defaultValue: tx.status })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p data-testid="no-transactions">{t("transactions.none")}</p>
      )}
      <Link to="/credits" className="btn btn-primary">{t("transactions.toCredits")}</Link>
    </ShopPage>
  );
}
