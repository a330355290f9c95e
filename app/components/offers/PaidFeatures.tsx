/**
 * Paid features on the page: asking before credits are spent (a <details> opens the question, so it
 * works without JavaScript), and the way to the checkout when credits are too few.
 */
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";

export function UnlockPhoto({ photoId, credits }: { photoId: string; credits: number }) {
  const { t } = useTranslation("offers");
  return (
    <details className="unlock-photo">
      <summary className="btn btn-primary btn-sm">
        <span className="unlock-closed">{t("photo.unlock", { count: credits })}</span>
        <span className="unlock-open">{t("photo.cancel")}</span>
      </summary>
      <Form method="post" className="unlock-confirm" aria-label={t("photo.locked")}>
        <p>{t("photo.confirm", { count: credits })}</p>
        <input type="hidden" name="intent" value="unlock" />
        <input type="hidden" name="photoId" value={photoId} />
        <button type="submit" className="btn btn-primary btn-sm" data-testid="unlock-confirm">
          {t("photo.yes")}
        </button>
      </Form>
    </details>
  );
}

/** Too few credits: the checkout, with the active discount's percentage when there is one. */
export function NotEnoughCredits({
  discount,
  kind = "photo",
  text,
  buy,
}: {
  discount: string | null;
  kind?: "photo" | "gift";
  text?: string;
  /** In a chat: a button that posts the chat's form to the checkout, so the purchase returns there. */
  buy?: { form: string; formAction: string };
}) {
  const { t } = useTranslation("offers");
  const label = discount ? t("buy.discounted", { percentage: discount }) : t("buy.credits");
  return (
    <div className="alert alert-warning" role="alert" data-testid="not-enough-credits">
      <p>{text ?? t(`${kind}.notEnough`)}</p>
      {buy ? (
        <button
          type="submit"
          form={buy.form}
          formAction={buy.formAction}
          name="intent"
          value="fromChat"
          className="btn btn-primary btn-sm"
        >
          {label}
        </button>
      ) : (
        <Link to="/credits" className="btn btn-primary btn-sm">
          {label}
        </Link>
      )}
    </div>
  );
}
