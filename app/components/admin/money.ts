/** Money as the console shows it (English, the payment's own currency). Display only: sums are made in cents on the server. */
export const money = (cents: number, currency: string) =>
  new Intl.NumberFormat("en", { style: "currency", currency, minimumFractionDigits: 2 }).format(cents / 100);

/** The status badge's colour: completed green, failures and chargebacks red, the rest plain. */
export const statusBadge = (status: string) =>
  status === "paid" || status === "refunded"
    ? "a-badge a-badge-ok"
    : ["failed", "charged_back", "canceled", "expired"].includes(status)
      ? "a-badge a-badge-red"
      : "a-badge";
