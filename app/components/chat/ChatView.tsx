import { Form, Link, useNavigation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/lib/i18n-react";
import type { SendError, WireMessage } from "~/chat/protocol";
import { useChatRoom } from "~/chat/client";
import { FREE_CONVERSATIONS } from "~/lib/constants";
import { ConversationList, Thumb, type ConversationItem } from "./ConversationList";
import { NotEnoughCredits } from "../offers/PaidFeatures";
import { GiftConfirm, GiftPicker, giftLabel } from "./GiftPicker";
import { Icebreakers } from "./Icebreakers";
import { LocalTime } from "./LocalTime";
import { SafetyMenu } from "../members/SafetyMenu";
import { FictionalMark } from "../members/FictionalMark";
import { Icon } from "../Icon";
import type { RootData } from "~/lib/root-data";

/** Why a send was refused; `draft` is the refused text, put back in the box; `gift`: the refused send was a gift. */
export type ChatError = { code: SendError | "premium" | "self"; max?: number; draft?: string; gift?: boolean };

export interface ChatViewProps {
  lng: string;
  meId: string;
  other: { id: string; name: string; photoId: string | null; fictional: boolean };
  conversationId: string | null;
  messages: WireMessage[];
  olderHidden: boolean;
  otherRead: boolean;
  list: ConversationItem[];
  /** Why this member cannot write here at all (the send footer is replaced by the reason). */
  blocked: null | "blockedBy" | "blockedMe" | "blocked" | "unavailable" | "premium" | "restricted";
  /** The end of a moderator's messaging restriction, as a date in the member's language (decision 173). */
  restrictedUntil: string | null;
  error: ChatError | null;
  /** A client message id for the form post, so a re-posted form is stored and charged once. */
  clientId: string;
  cost: number;
  /** The message's money value in the brand's currency ("€0.20–€0.40"), beside the composer (decision 179). */
  costWorth: string | null;
  /** Text typed before buying credits from this chat, put back in the box (decision 179). */
  draft: string | null;
  /** This page's path: where a purchase started from here returns. */
  returnTo: string;
  giftCredits: number;
  messageLength: number;
  /** The active discount's percentage, offered with the checkout when credits are too few. */
  discount: string | null;
  /** A gift picked on the no-JavaScript path, waiting for "yes" (the action's answer). */
  confirmGift: string | null;
}

export function ChatErrorText({ error, discount }: { error: ChatError; discount: string | null }) {
  const { t } = useTranslation("chat");
  if (error.code === "credits") {
    // The buy button posts the chat's form (and its typed text) to /credits: the purchase comes back here.
    const buy = { form: CHAT_FORM_ID, formAction: "/credits?index" };
    return error.gift ? (
      <NotEnoughCredits kind="gift" discount={discount} buy={buy} />
    ) : (
      <NotEnoughCredits text={t("errors.credits")} discount={discount} buy={buy} />
    );
  }
  if (error.code === "premium") return <PremiumPrompt />;
  if (error.code === "restricted") return <RestrictedNotice until={null} />;
  return (
    <p className="alert alert-danger" role="alert">
      {t(`errors.${error.code}`, { max: error.max })}
    </p>
  );
}

/** A moderator restricted this member's messaging: why sending is refused, and where the statement is. */
function RestrictedNotice({ until }: { until: string | null }) {
  const { t } = useTranslation("chat");
  return (
    <div className="alert alert-danger" role="alert">
      <p>{until ? t("errors.restrictedUntil", { until }) : t("errors.restricted")}</p>
      <Link to="/settings/statements">{t("errors.restrictedStatement")}</Link>
    </div>
  );
}

function PremiumPrompt() {
  const { t } = useTranslation("chat");
  return (
    <div className="alert alert-premium chat-premium" role="alert">
      <p>{t("errors.premium", { count: FREE_CONVERSATIONS })}</p>
      <Link to="/premium" className="btn btn-primary">
        {t("errors.getPremium")}
      </Link>
    </div>
  );
}

function Bubble({
  m,
  mine,
  otherName,
  status,
  conversationId,
}: {
  m: WireMessage;
  mine: boolean;
  otherName: string;
  status?: string;
  conversationId?: string;
}) {
  const { t, i18n } = useTranslation("chat");
  if (m.kind === "notice") {
    // The site's own line (decision 201): "<credits>|<hours>" of a paid message nobody answered in time.
    const [credits = 0, hours = 24] = m.body.split("|").map(Number);
    return (
      <li className="chat-notice" data-message-id={m.id || undefined}>
        {t("room.noReply", { count: credits, hours })}
      </li>
    );
  }
  return (
    <li
      className={`chat-msg ${mine ? "is-mine" : "is-theirs"}${m.kind === "gift" ? " is-gift" : ""}`}
      data-message-id={m.id || undefined}
    >
      <div className="chat-msg-row">
        <div className="chat-bubble">
          {m.kind === "gift" ? (
            <span className="chat-gift">{giftLabel(m.giftId, t, mine ? "sent" : "received", otherName)}</span>
          ) : (
            <span className="chat-body">{m.body}</span>
          )}
        </div>
        {/* Report behind a 44 px "⋯" beside the message (decision 215): a <details>, so it opens without JavaScript. */}
        {!mine && m.id && conversationId ? (
          <details className="dropdown chat-msg-menu">
            <summary className="chat-msg-more" aria-label={t("room.messageMore")} title={t("room.messageMore")}>
              <span aria-hidden="true">⋯</span>
            </summary>
            <div className="dropdown-menu">
              <a
                className="dropdown-item chat-report"
                href={`/report?message=${encodeURIComponent(conversationId)}:${m.id}`}
              >
                {t("room.report")}
              </a>
            </div>
          </details>
        ) : null}
      </div>
      <div className="chat-meta">
        {m.createdAt ? <LocalTime at={m.createdAt} lng={i18n.language} /> : null}
        {m.held ? (
          <span className="chat-held">{t("room.held")}</span>
        ) : status ? (
          <span className="chat-status">{status}</span>
        ) : null}
      </div>
    </li>
  );
}

const CHAT_FORM_ID = "chat-send";

export function ChatView(p: ChatViewProps) {
  const { t } = useTranslation("chat");
  const { revalidate } = useRevalidator();
  const navigation = useNavigation();
  const room = useChatRoom({
    conversationId: p.conversationId,
    meId: p.meId,
    initialMessages: p.messages,
    otherRead: p.otherRead,
    onCountsChanged: revalidate,
    // A refused text goes back in the box (unless the member already typed something new).
    onRefused: (q) => {
      if (q.kind === "text" && textarea.current && !textarea.current.value) textarea.current.value = q.body;
    },
  });
  // The member's credits beside the cost (decision 215): the root's, which a send's acknowledgement refreshes
  // (this route keeps its own data while the socket keeps the conversation live).
  const balance = useRouteLoaderData<RootData>("root")?.member?.credits ?? 0;
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => {
    setHydrated(true);
  }, []);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const end = useRef<HTMLLIElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView({ block: "end" });
  }, [room.messages.length, room.pending.length, room.typing]);
  // A successful form post leaves the textarea empty (only after a submission: text typed before
  // hydration must survive).
  const wasSubmitting = useRef(false);
  useEffect(() => {
    if (navigation.state === "submitting") wasSubmitting.current = true;
    else if (navigation.state === "idle" && wasSubmitting.current) {
      wasSubmitting.current = false;
      if (!p.error && textarea.current) textarea.current.value = "";
    }
  }, [navigation.state, p.error]);

  const [picked, setPicked] = useState<string | null>(null);
  const [sentGift, setSentGift] = useState(false);
  const confirmGift = picked ?? p.confirmGift;
  const error: ChatError | null = room.error ? { code: room.error, max: p.messageLength, gift: sentGift } : p.error;
  const lastMine = [...room.messages].reverse().find((m) => m.senderId === p.meId && !m.held);
  const list = p.list.map((c) => {
    if (c.id !== p.conversationId) return c;
    // The site's own lines are not a message of either member: the list keeps the last real one.
    const last = room.messages.findLast((m) => m.kind !== "notice");
    if (!last || last.held) return { ...c, unread: 0 };
    return {
      ...c,
      unread: 0,
      lastMessageAt: last.createdAt,
      lastMessagePreview: last.kind === "gift" ? `gift:${last.giftId}` : last.body,
    };
  });

  function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    // "Buy credits" posts this form to /credits (Remix follows the button's formAction).
    if (submitter?.value === "fromChat") return;
    const data = new FormData(e.currentTarget);
    if (submitter?.name === "pickGift") {
      // Ask first, in the page (the no-JavaScript post gets the same question from the action).
      e.preventDefault();
      setPicked(submitter.value);
      submitter.closest("details")?.removeAttribute("open");
      return;
    }
    const giftId = submitter?.name === "giftId" ? submitter.value : null;
    setSentGift(!!giftId);
    if (giftId) {
      setPicked(null);
      if (room.send({ kind: "gift", body: "", giftId })) e.preventDefault();
      return;
    }
    const body = String(data.get("body") ?? "").trim();
    if (!body) {
      e.preventDefault();
      return;
    }
    if (room.send({ kind: "text", body, giftId: null })) {
      e.preventDefault();
      e.currentTarget.reset();
    }
  }

  return (
    <div className={`chat${p.conversationId ? " has-room" : ""}`} data-connected={room.connected ? "" : undefined}>
      {/* The page's heading for screen readers and outlines; the header below shows the name with the photo. */}
      <h1 className="visually-hidden">{t("room.title", { name: p.other.name })}</h1>
      <aside className="chat-aside">
        <h2 className="chat-aside-title">{t("overview.title")}</h2>
        <ConversationList items={list} activeId={p.conversationId ?? undefined} lng={p.lng} />
      </aside>
      <section className="chat-room" aria-label={t("room.title", { name: p.other.name })}>
        <header className="chat-head">
          <Link to="/chats" className="chat-back" aria-label={t("room.back")}>
            ‹
          </Link>
          <Link to={`/members/${p.other.id}`} className="chat-head-link">
            <Thumb photoId={p.other.photoId} name={p.other.name} size={40} />
            <span>
              <strong>{p.other.name}</strong>
              <span className="chat-head-sub">{t("room.viewProfile")}</span>
            </span>
          </Link>
          {p.other.fictional ? <FictionalMark className="fictional-mark-head" /> : null}
          <SafetyMenu
            memberId={p.other.id}
            labels={{
              more: t("room.more"),
              block: p.blocked === "blockedMe" ? undefined : t("room.block"),
              report: t("room.reportProfile"),
            }}
          />
        </header>
        {room.dropped ? (
          <p className="chat-reconnecting" role="status">
            {t("room.reconnecting")}
          </p>
        ) : null}
        <ol className="chat-messages" aria-live="polite" aria-label={t("room.messages")}>
          {p.olderHidden ? <li className="chat-history-note">{t("room.history")}</li> : null}
          {room.messages.length === 0 && room.pending.length === 0 ? (
            <li className="chat-empty">{t("room.start", { name: p.other.name })}</li>
          ) : null}
          {room.messages.map((m) => (
            <Bubble
              key={m.id}
              m={m}
              mine={m.senderId === p.meId}
              conversationId={p.conversationId ?? undefined}
              otherName={p.other.name}
              status={m === lastMine ? (room.otherRead ? t("room.read") : t("room.sent")) : undefined}
            />
          ))}
          {room.pending.map((q) => (
            <Bubble
              key={q.clientId}
              m={{
                id: 0,
                senderId: p.meId,
                clientId: q.clientId,
                kind: q.kind,
                body: q.body,
                giftId: q.giftId,
                createdAt: 0,
                held: false,
              }}
              mine
              otherName={p.other.name}
              status={t("room.sending")}
            />
          ))}
          <li ref={end} className="chat-end" aria-hidden="true" />
        </ol>
        <p className="chat-typing" aria-live="polite">
          {room.typing ? t("room.typing", { name: p.other.name }) : ""}
        </p>
        <footer className="chat-foot">
          {p.blocked === "premium" ? (
            <PremiumPrompt />
          ) : p.blocked === "restricted" ? (
            <RestrictedNotice until={p.restrictedUntil} />
          ) : p.blocked ? (
            <p className="alert alert-warning">{t(`errors.${p.blocked}`, { name: p.other.name })}</p>
          ) : (
            <>
              {error ? <ChatErrorText error={error} discount={p.discount} /> : null}
              <Form method="post" className="chat-send" id={CHAT_FORM_ID} onSubmit={onSubmit}>
                <input type="hidden" name="clientId" value={p.clientId} />
                <input type="hidden" name="returnTo" value={p.returnTo} />
                {confirmGift ? (
                  <GiftConfirm giftId={confirmGift} cost={p.giftCredits} onCancel={() => setPicked(null)} />
                ) : null}
                <div className="chat-tools">
                  <GiftPicker cost={p.giftCredits} />
                  <Icebreakers
                    hydrated={hydrated}
                    onPick={(line) => {
                      if (textarea.current) {
                        textarea.current.value = line;
                        textarea.current.focus();
                      }
                    }}
                  />
                </div>
                <label className="chat-input">
                  <span className="visually-hidden">{t("room.messageLabel")}</span>
                  <textarea
                    ref={textarea}
                    name="body"
                    rows={2}
                    maxLength={p.messageLength}
                    defaultValue={p.error?.draft ?? p.draft ?? undefined}
                    placeholder={t("room.placeholder")}
                    onInput={room.typed}
                    onKeyDown={(e) => {
                      if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
                        e.preventDefault();
                        e.currentTarget.form?.requestSubmit();
                      }
                    }}
                  />
                </label>
                <button type="submit" name="intent" value="send" className="btn btn-primary chat-send-btn">
                  {t("room.send")}
                </button>
                <p className="chat-cost">
                  <span data-testid="chat-cost">
                    {t("room.cost", { count: p.cost })}
                    {p.costWorth ? ` · ${t("room.costWorth", { money: p.costWorth })}` : null}
                  </span>
                  <span className="chat-balance" data-testid="chat-balance">
                    <Icon name="coin" size={14} /> {t("room.balance", { count: balance })}
                  </span>
                </p>
                {p.other.fictional ? <FictionalMark className="fictional-mark-composer" /> : null}
              </Form>
            </>
          )}
        </footer>
      </section>
    </div>
  );
}
