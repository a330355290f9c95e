import { Icon } from "../Icon";
import { useRef } from "react";
import { useTranslation } from "~/lib/i18n-react";
import { ICEBREAKER_COUNT } from "~/chat/gifts";

const NUMBERS = Array.from({ length: ICEBREAKER_COUNT }, (_, i) => String(i + 1));

/**
 * Opening lines in the member's language. With JavaScript: a modal whose buttons fill the textarea.
 * Without: a select in the send form; the server sends the chosen line when the textarea is empty.
 */
export function Icebreakers({ hydrated, onPick }: { hydrated: boolean; onPick: (line: string) => void }) {
  const { t } = useTranslation("chat");
  const dialog = useRef<HTMLDialogElement>(null);
  if (!hydrated) {
    return (
      <label className="chat-icebreaker-select">
        <span className="chat-tool-label">{t("icebreakers.select")}</span>
        <select name="icebreaker" defaultValue="">
          <option value="">{t("icebreakers.none")}</option>
          {NUMBERS.map((n) => (
            <option key={n} value={n}>
              {t(`icebreakers.${n}`)}
            </option>
          ))}
        </select>
      </label>
    );
  }
  return (
    <>
      <button type="button" className="btn btn-light" onClick={() => dialog.current?.showModal()}>
        <Icon name="bubbles" size={18} /> <span className="chat-tool-label">{t("icebreakers.open")}</span>
      </button>
      <dialog ref={dialog} className="chat-icebreakers" aria-labelledby="icebreakers-title">
        <h2 id="icebreakers-title">{t("icebreakers.title")}</h2>
        <ul>
          {NUMBERS.map((n) => (
            <li key={n}>
              <button
                type="button"
                className="chat-icebreaker"
                onClick={() => {
                  onPick(t(`icebreakers.${n}`));
                  dialog.current?.close();
                }}
              >
                {t(`icebreakers.${n}`)}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="btn btn-light" onClick={() => dialog.current?.close()}>
          {t("icebreakers.close")}
        </button>
      </dialog>
    </>
  );
}
