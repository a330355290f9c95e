import { Form } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { Icon } from "../Icon";

/** A like button that posts to the current route's action (targetId), with or without JavaScript. */
export function LikeForm({ targetId }: { targetId: string }) {
  const { t } = useTranslation("members");
  return (
    <Form method="post">
      <input type="hidden" name="targetId" value={targetId} />
      <button type="submit" className="btn btn-primary btn-sm">
        <Icon name="heart" size={16} /> {t("likes.like")}
      </button>
    </Form>
  );
}
