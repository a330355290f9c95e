/**
 * The chat's wire protocol, shared by the browser client and the ChatRoom Durable Object.
 * Frames are JSON text; the client never names itself: the object knows who a socket belongs to
 * from what the Worker attached when it accepted the upgrade.
 */

/** What a member sends. */
export type MessageKind = "text" | "gift";
/**
 * What a conversation shows: also the site's own lines (no sender), e.g. "no reply within the brand's
 * window: your credits are back" (decision 201), body "<credits>|<hours>".
 */
export type ShownKind = MessageKind | "notice";

export interface WireMessage {
  id: number;
  senderId: string;
  clientId: string;
  kind: ShownKind;
  body: string;
  giftId: string | null;
  /** Unix seconds. */
  createdAt: number;
  /** Held until the sender confirms their e-mail address; only the sender sees it meanwhile. */
  held: boolean;
}

export type SendError =
  | "not_found"
  | "blocked"
  | "deleted"
  | "credits"
  | "length"
  | "empty"
  | "gift"
  | "session"
  /** A moderator restricted the sender's messaging (decision 173). */
  | "restricted"
  /** The message could not be stored (its charge was given back): try again (chat.json errors.generic). */
  | "generic";

/** What the sender pays for a message and a gift (computed by pricesFor in app/models/credits.server.ts). */
export interface ChatPrices {
  message: number;
  gift: number;
}

/** One send, as the Worker or a form action hands it to the conversation's object. */
export interface SendInput {
  conversationId: string;
  senderId: string;
  clientId: string;
  kind: MessageKind;
  body?: string;
  giftId?: string;
  prices: ChatPrices;
  /** A live socket's session: the send is refused ("session") once it has been revoked or expired. */
  sessionHash?: string;
}

export type SendResult =
  | {
      ok: true;
      message: WireMessage;
      duplicate: boolean;
      receiverId: string;
      /** The receiver's unread count went from 0 to 1: worth an e-mail if they are offline. */
      firstUnread: boolean;
      cost: number;
    }
  | { ok: false; error: SendError; cost?: number };

export type ClientFrame =
  | { type: "send"; clientId: string; body: string }
  | { type: "gift"; clientId: string; giftId: string }
  | { type: "typing"; typing: boolean }
  | { type: "read" };

export type ServerFrame =
  /** Right after connecting: what the client missed since `?after=<last seen id>`. */
  | { type: "backlog"; messages: WireMessage[]; otherUnread: number }
  | { type: "message"; message: WireMessage }
  | { type: "ack"; clientId: string; message: WireMessage }
  | { type: "error"; clientId?: string; error: SendError }
  | { type: "typing"; memberId: string; typing: boolean }
  | { type: "read"; memberId: string }
  /** A moderation decision removed this message (both members' views), or an appeal restored it. */
  | { type: "removed"; id: number };

/**
 * What a member's hub (GET /ws/member) sends to each of their tabs: their counts changed. A message
 * names its conversation and sender, so the tab showing that chat leaves the counts to the chat.
 */
export type HubEvent = { kind: "message"; conversationId: string; senderId: string } | { kind: "like" };
export const HUB_PATH = "/ws/member";

/** Headers only the Worker sets on the upgrade it forwards to the object. */
export const MEMBER_HEADER = "X-Chat-Member";
export const CONVERSATION_HEADER = "X-Chat-Conversation";
/** The hash of the session the socket was opened with: it closes when that session is revoked. */
export const SESSION_HEADER = "X-Chat-Session";
/** Close code of a socket whose session was revoked (logout, password change or reset, deletion). */
export const REVOKED_CLOSE = 4401;
/** The member's ChatPrices as JSON, computed by the Worker from their brand and country. */
export const PRICES_HEADER = "X-Chat-Prices";

/** Ping frames are answered by the runtime without waking a hibernated object. */
export const PING = '{"type":"ping"}';
export const PONG = '{"type":"pong"}';

/** How long the other side shows "typing…" after the last typing frame. */
export const TYPING_TIMEOUT_MS = 6000;
/** How often a typing member repeats the frame. */
export const TYPING_REPEAT_MS = 3000;

export const CLIENT_ID = /^[A-Za-z0-9_-]{8,64}$/;
const MAX_FRAME_BODY = 20_000;

/** Parses a frame from the browser; anything malformed is null (and ignored). */
export function parseClientFrame(raw: string | ArrayBuffer): ClientFrame | null {
  if (typeof raw !== "string" || raw.length > MAX_FRAME_BODY + 200) return null;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!v || typeof v !== "object") return null;
  const f = v as Record<string, unknown>;
  switch (f.type) {
    case "send":
      return typeof f.clientId === "string" && CLIENT_ID.test(f.clientId) && typeof f.body === "string"
        ? { type: "send", clientId: f.clientId, body: f.body }
        : null;
    case "gift":
      return typeof f.clientId === "string" && CLIENT_ID.test(f.clientId) && typeof f.giftId === "string"
        ? { type: "gift", clientId: f.clientId, giftId: f.giftId }
        : null;
    case "typing":
      return { type: "typing", typing: f.typing === true };
    case "read":
      return { type: "read" };
    default:
      return null;
  }
}

/** A fresh client message id (random, URL-safe). */
export function newClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** One line of the chats overview (server model and list component alike). */
export interface ConversationSummary {
  id: string;
  otherId: string;
  otherName: string;
  otherPhotoId: string | null;
  /** The other profile is team-run: labelled in the list (decision 179). */
  otherFictional: boolean;
  unread: number;
  lastMessageAt: number | null;
  lastMessagePreview: string | null;
}
