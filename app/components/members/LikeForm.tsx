import { Form } from "@remix-run/react";
import { useTranslation } from "~/lib/i18n-react";
import { Icon } from "../Icon";

/** A like button that posts to the current route's action (targetId), with or without JavaScript. */
export function LikeForm({ targetId, back }: { targetId: string; back?: { name: string } }) {
  const { t } = useTranslation("members");
  return (
    <Form method="post">
      <input type="hidden" name="targetId" value={targetId} />
      {/* A like back on a received like says whom it answers. */}
      <button
        type="submit"
        className="btn btn-primary btn-sm"
        aria-label={back ? t("likes.likeBackLabel", { name: back.name }) : undefined}
      >
        <Icon name="heart" size={16} /> {back ? t("likes.likeBack") : t("likes.like")}
      </button>
    </Form>
  );
}
