/**
 * A payment method's badge on its card: the logo its provider's method list gives (Mollie's `image.svg`, the
 * sandbox's neutral data: badge), else a neutral drawing of the kind of method (a method the provider did not
 * describe, or a list that could not be read). 32 × 24, the size of Mollie's logos (decision 215).
 */
const CARD = ["creditcard", "visa", "mastercard", "maestro", "dankort", "carte_bancaire", "nexi"];
const PHONE = ["blik", "mobilepay", "swish", "twint", "satispay", "vipps", "applepay", "paypal"];
const VOUCHER = ["paysafecard"];

function kindOf(method: string): "card" | "phone" | "voucher" | "bank" {
  if (CARD.includes(method)) return "card";
  if (PHONE.includes(method)) return "phone";
  if (VOUCHER.includes(method)) return "voucher";
  return "bank";
}

const DRAWINGS = {
  card: "M5 6h26a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2zM3 11h30M7 17h8",
  bank: "M18 3 4 9h28zM7 11v8M13 11v8M23 11v8M29 11v8M4 21h28",
  phone: "M12 3h12a2 2 0 0 1 2 2v16a2 2 0 0 1-2 2H12a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zM16 19h4",
  voucher: "M4 7h28v4a3 3 0 0 0 0 6v4H4v-4a3 3 0 0 0 0-6zM14 9v2M14 13v2M14 17v2",
} as const;

export function MethodBadge({ method, image }: { method: string; image?: string | null }) {
  if (image) return <img className="method-badge" src={image} alt="" width={32} height={24} />;
  return (
    <svg
      className="method-badge"
      width={32}
      height={24}
      viewBox="-2 0 36 24"
      aria-hidden="true"
      data-kind={kindOf(method)}
    >
      <path d={DRAWINGS[kindOf(method)]} fill="none" stroke="currentColor" strokeWidth={1.6} strokeLinejoin="round" />
    </svg>
  );
}
