/**
 * The browser side of a conversation: one WebSocket to the conversation's object, no libraries.
 * It resumes after a drop from the last message id it has seen, resends what was still pending
 * (same client ids, so nothing is stored twice), and dedupes by message id (nothing shows twice).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import {
  PING,
  TYPING_REPEAT_MS,
  TYPING_TIMEOUT_MS,
  newClientId,
  type ClientFrame,
  type SendError,
  type ServerFrame,
  type WireMessage,
  REVOKED_CLOSE,
} from "./protocol";

export type Pending = { clientId: string; kind: "text" | "gift"; body: string; giftId: string | null };

export function mergeMessages(list: WireMessage[], more: WireMessage[]): WireMessage[] {
  if (more.length === 0) return list;
  const byId = new Map(list.map((m) => [m.id, m]));
  for (const m of more) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

const KEEPALIVE_MS = 30_000;

export function useChatRoom(o: {
  conversationId: string | null;
  meId: string;
  initialMessages: WireMessage[];
  otherRead: boolean;
  /** Called when the member's counts may have changed (root revalidation: badges, title, credits). */
  onCountsChanged: () => void;
  /** Called with a send the server refused (no credits, blocked…): the page can give its text back. */
  onRefused?: (p: Pending) => void;
}) {
  const [messages, setMessages] = useState(o.initialMessages);
  const [pending, setPending] = useState<Pending[]>([]);
  const [typing, setTyping] = useState(false);
  const [otherRead, setOtherRead] = useState(o.otherRead);
  const [connected, setConnected] = useState(false);
  const [dropped, setDropped] = useState(false);
  const [error, setError] = useState<SendError | null>(null);
  const ws = useRef<WebSocket | null>(null);
  const lastId = useRef(o.initialMessages.at(-1)?.id ?? 0);
  const pendingRef = useRef(pending);
  pendingRef.current = pending;
  const unseen = useRef(false);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>();
  const lastTypingSent = useRef(0);
  const countsChanged = useRef(o.onCountsChanged);
  countsChanged.current = o.onCountsChanged;
  const refused = useRef(o.onRefused);
  refused.current = o.onRefused;

  // Server renders after a form post bring messages too.
  useEffect(() => {
    setMessages((list) => mergeMessages(list, o.initialMessages));
  }, [o.initialMessages]);
  useEffect(() => {
    lastId.current = Math.max(lastId.current, messages.at(-1)?.id ?? 0);
  }, [messages]);

  const frame = useCallback((f: ClientFrame) => {
    const socket = ws.current;
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(f));
    return true;
  }, []);

  const markSeen = useCallback(() => {
    if (unseen.current && document.visibilityState === "visible" && frame({ type: "read" })) {
      unseen.current = false;
      countsChanged.current();
    }
  }, [frame]);

  useEffect(() => {
    if (!o.conversationId) return;
    let stopped = false;
    let attempt = 0;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const receive = (f: ServerFrame) => {
      switch (f.type) {
        case "backlog":
          setMessages((list) => mergeMessages(list, f.messages));
          setOtherRead(f.otherUnread === 0);
          if (f.messages.some((m) => m.senderId !== o.meId)) unseen.current = true;
          markSeen();
          break;
        case "message":
        case "ack": {
          const m = f.message;
          setMessages((list) => mergeMessages(list, [m]));
          setPending((list) => list.filter((p) => p.clientId !== m.clientId || m.senderId !== o.meId));
          if (m.senderId === o.meId) {
            setOtherRead(false);
            if (f.type === "ack") countsChanged.current();
          } else {
            setTyping(false);
            unseen.current = true;
            if (document.visibilityState === "visible") markSeen();
            else countsChanged.current();
          }
          break;
        }
        case "error": {
          const gone = pendingRef.current.find((p) => p.clientId === f.clientId);
          if (gone) refused.current?.(gone);
          setPending((list) => list.filter((p) => p.clientId !== f.clientId));
          setError(f.error);
          break;
        }
        case "typing":
          if (f.memberId === o.meId) break;
          clearTimeout(typingTimer.current);
          setTyping(f.typing);
          if (f.typing) typingTimer.current = setTimeout(() => setTyping(false), TYPING_TIMEOUT_MS);
          break;
        case "read":
          if (f.memberId !== o.meId) setOtherRead(true);
          break;
        case "removed":
          setMessages((list) => list.filter((m) => m.id !== f.id));
          break;
      }
    };
    const connect = () => {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const socket = new WebSocket(
        `${proto}//${location.host}/ws/chat/${encodeURIComponent(o.conversationId!)}?after=${lastId.current}`,
      );
      ws.current = socket;
      socket.onopen = () => {
        attempt = 0;
        setConnected(true);
        setDropped(false);
        // What was sent but not acknowledged before a drop: the same client ids make this safe.
        for (const p of pendingRef.current) {
          socket.send(
            JSON.stringify(
              p.kind === "gift"
                ? { type: "gift", clientId: p.clientId, giftId: p.giftId }
                : { type: "send", clientId: p.clientId, body: p.body },
            ),
          );
        }
      };
      socket.onmessage = (e) => {
        try {
          if (e.data !== '{"type":"pong"}') receive(JSON.parse(String(e.data)) as ServerFrame);
        } catch {
          // Ignore a malformed frame.
        }
      };
      socket.onclose = (e) => {
        setConnected(false);
        if (stopped) return;
        // The session was revoked (logout elsewhere, password change): the page sends to the login.
        if (e.code === REVOKED_CLOSE) return location.reload();
        setDropped(true);
        retry = setTimeout(connect, Math.min(10_000, 300 * 2 ** attempt++));
      };
    };
    connect();
    const keepalive = setInterval(
      () => ws.current?.readyState === WebSocket.OPEN && ws.current.send(PING),
      KEEPALIVE_MS,
    );
    const onVisible = () => markSeen();
    document.addEventListener("visibilitychange", onVisible);
    // Back online: reconnect now instead of waiting for the back-off.
    const onOnline = () => {
      if (ws.current?.readyState === WebSocket.CLOSED) {
        clearTimeout(retry);
        attempt = 0;
        connect();
      }
    };
    window.addEventListener("online", onOnline);
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(keepalive);
      clearTimeout(typingTimer.current);
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener("online", onOnline);
      ws.current?.close(1000);
      ws.current = null;
    };
  }, [o.conversationId, o.meId, markSeen]);

  /** Sends over the socket; false when it is not open (the caller lets the form post instead). */
  const send = useCallback(
    (p: Omit<Pending, "clientId">) => {
      const clientId = newClientId();
      const f: ClientFrame =
        p.kind === "gift" ? { type: "gift", clientId, giftId: p.giftId! } : { type: "send", clientId, body: p.body };
      if (!frame(f)) return false;
      setError(null);
      setPending((list) => [...list, { ...p, clientId }]);
      frame({ type: "typing", typing: false });
      lastTypingSent.current = 0;
      return true;
    },
    [frame],
  );

  const typed = useCallback(() => {
    const now = Date.now();
    if (now - lastTypingSent.current < TYPING_REPEAT_MS) return;
    if (frame({ type: "typing", typing: true })) lastTypingSent.current = now;
  }, [frame]);

  return { messages, pending, typing, otherRead, connected, dropped, error, setError, send, typed };
}
