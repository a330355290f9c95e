import { apiFetch } from "~/lib/api-client";
import { Form, Link, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/lib/i18n-react";
import { countBadge } from "~/lib/badges";
import { giftById } from "~/chat/gifts";
import type { ConversationSummary } from "~/chat/protocol";
import { LocalTime } from "./LocalTime";
import { FictionalTag } from "../members/FictionalMark";

export type ConversationItem = ConversationSummary;

export function Thumb({ photoId, name, size = 48 }: { photoId: string | null; name: string; size?: number }) {
  return photoId ? (
    <img className="chat-thumb" src={`/photos/${photoId}/thumb`} alt="" width={size} height={size} loading="lazy" />
  ) : (
    <span className="chat-thumb chat-thumb-empty" style={{ width: size, height: size }} aria-hidden="true">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

export function usePreview() {
  const { t } = useTranslation("chat");
  return (preview: string | null) => {
    if (!preview) return t("overview.noMessages");
    if (preview.startsWith("gift:")) {
      const gift = giftById(preview.slice(5));
      return gift ? `${gift.emoji} ${t(`gifts.${gift.id}`)}` : "🎁";
    }
    return preview;
  };
}

/**
 * The member's conversations. Deleting is a real form (works without JavaScript); with JavaScript
 * the chat disappears at once and DELETE /api/chat.php runs; on failure an alert, then a reload.
 */
export function ConversationList({
  items,
  activeId,
  lng,
}: {
  items: ConversationItem[];
  activeId?: string;
  lng: string;
}) {
  const { t } = useTranslation("chat");
  const preview = usePreview();
  const { revalidate } = useRevalidator();
  const [removed, setRemoved] = useState<Set<string>>(new Set());
  const visible = items.filter((c) => !removed.has(c.id));

  async function remove(e: React.FormEvent<HTMLFormElement>, id: string) {
    e.preventDefault();
    setRemoved((s) => new Set(s).add(id));
    let ok = false;
    try {
      const res = await apiFetch("/api/chat.php", {
        method: "DELETE",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ conversation: id }),
      });
      ok = res.ok;
    } catch {
      ok = false;
    }
    if (!ok) {
      window.alert(t("overview.deleteFailed"));
      setRemoved((s) => {
        const next = new Set(s);
        next.delete(id);
        return next;
      });
    }
    revalidate();
  }

  if (visible.length === 0) {
    return (
      <div className="chat-list-empty">
        <p>{t("overview.empty")}</p>
        <Link to="/members" className="btn btn-primary">
          {t("overview.findMembers")}
        </Link>
      </div>
    );
  }
  return (
    <ul className="chat-list" aria-label={t("overview.conversations")}>
      {visible.map((c) => {
        const badge = countBadge(c.unread);
        return (
          <li
            key={c.id}
            className={`chat-list-item${c.id === activeId ? " is-active" : ""}${c.unread ? " is-unread" : ""}`}
            data-conversation={c.id}
          >
            <Link
              to={`/chats/${c.id}`}
              className="chat-list-link"
              aria-current={c.id === activeId ? "page" : undefined}
            >
              <Thumb photoId={c.otherPhotoId} name={c.otherName} />
              <span className="chat-list-text">
                <span className="chat-list-top">
                  <strong className="chat-list-name">{c.otherName}</strong>
                  {c.lastMessageAt ? <LocalTime at={c.lastMessageAt} lng={lng} /> : null}
                </span>
                {c.otherFictional ? <FictionalTag /> : null}
                <span className="chat-list-preview">{preview(c.lastMessagePreview)}</span>
              </span>
              {badge ? (
                <span className="badge badge-unread chat-list-badge">
                  <span aria-hidden="true">{badge}</span>
                  <span className="visually-hidden">{t("overview.unread", { count: c.unread })}</span>
                </span>
              ) : null}
            </Link>
            <Form method="post" action="/chats" className="chat-list-delete" onSubmit={(e) => remove(e, c.id)}>
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="conversation" value={c.id} />
              <button
                type="submit"
                className="btn-icon"
                aria-label={t("overview.deleteLabel", { name: c.otherName })}
                title={t("overview.delete")}
              >
                ×
              </button>
            </Form>
          </li>
        );
      })}
    </ul>
  );
}
