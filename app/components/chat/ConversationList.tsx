import { apiFetch } from "~/lib/api-client";
import { Link, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
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

/** How long the Undo bar stays after a chat is deleted with JavaScript. */
export const UNDO_MS = 6000;

/**
 * The member's conversations. Without JavaScript the × opens a confirmation step (/chats?confirm=<id>)
 * whose form posts the delete; with JavaScript the chat disappears at once, DELETE /api/chat.php runs,
 * and an Undo bar stays for UNDO_MS: Undo shows the chat again (POST intent=restore, the member's row only).
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
  const [undo, setUndo] = useState<{ id: string; name: string } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const visible = items.filter((c) => !removed.has(c.id));
  useEffect(() => () => clearTimeout(timer.current), []);

  const show = (id: string) =>
    setRemoved((s) => {
      const next = new Set(s);
      next.delete(id);
      return next;
    });

  async function send(id: string, restore: boolean) {
    try {
      const res = await apiFetch("/api/chat.php", {
        method: restore ? "POST" : "DELETE",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(restore ? { conversation: id, intent: "restore" } : { conversation: id }),
      });
      return res.ok;
    } catch {
      return false;
    }
  }

  async function remove(e: React.MouseEvent<HTMLAnchorElement>, c: ConversationItem) {
    e.preventDefault();
    setRemoved((s) => new Set(s).add(c.id));
    clearTimeout(timer.current);
    setUndo(null);
    if (!(await send(c.id, false))) {
      window.alert(t("overview.deleteFailed"));
      show(c.id);
      return;
    }
    setUndo({ id: c.id, name: c.otherName });
    revalidate();
    timer.current = setTimeout(() => setUndo(null), UNDO_MS);
  }

  async function restore(id: string) {
    clearTimeout(timer.current);
    setUndo(null);
    if (await send(id, true)) show(id);
    else window.alert(t("overview.undoFailed"));
    revalidate();
  }

  const undoBar = undo ? (
    <div className="chat-undo" role="status">
      <span>{t("overview.deleted", { name: undo.name })}</span>
      <button type="button" className="btn btn-sm" onClick={() => restore(undo.id)}>
        {t("overview.undo")}
      </button>
    </div>
  ) : null;

  if (visible.length === 0) {
    return (
      <>
        <div className="chat-list-empty">
          <p>{t("overview.empty")}</p>
          <Link to="/members" className="btn btn-primary">
            {t("overview.findMembers")}
          </Link>
        </div>
        {undoBar}
      </>
    );
  }
  return (
    <>
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
              <Link
                to={`/chats?confirm=${encodeURIComponent(c.id)}`}
                className="btn-icon chat-list-delete"
                aria-label={t("overview.deleteLabel", { name: c.otherName })}
                title={t("overview.delete")}
                onClick={(e) => remove(e, c)}
              >
                ×
              </Link>
            </li>
          );
        })}
      </ul>
      {undoBar}
    </>
  );
}
