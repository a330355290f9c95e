import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { HUB_PATH, PING, PONG, type HubEvent } from "~/chat/protocol";
import { USER_REFETCH_FIRST_DELAY_S, USER_REFETCH_INTERVAL_PUSH_S, USER_REFETCH_INTERVAL_S } from "~/lib/constants";

type Counts = { unreadMessages: number; newLikes: number; pushSubscribed: boolean };

/** Below the ~100 s after which an idle WebSocket may be dropped; answered without waking the hub. */
const KEEPALIVE_MS = 30_000;

/**
 * The quick first re-fetch is once per document: a remount (an error view mounts a shell of its own)
 * keeps only the interval, or a page that throws would be fetched and rendered again every 5 s.
 */
let firstRefetchDone = false;

/**
 * Keeps the member's counts (messages and likes badges, title prefix, app badge) fresh: at once when
 * their hub (/ws/member, app/chat/hub.ts) says a message or like arrived, and as a fallback by
 * re-fetching every 60 s, or 300 s with push, first after 5 s (docs/product/limits.md §9).
 */
export function LiveCounts({ member }: { member: Counts }) {
  const { revalidate } = useRevalidator();
  const refetch = useRef(revalidate);
  refetch.current = revalidate;
  const total = member.unreadMessages + member.newLikes;
  useEffect(() => {
    const every = (member.pushSubscribed ? USER_REFETCH_INTERVAL_PUSH_S : USER_REFETCH_INTERVAL_S) * 1000;
    let interval: ReturnType<typeof setInterval> | undefined;
    const first = setTimeout(
      () => {
        firstRefetchDone = true;
        refetch.current();
        interval = setInterval(() => document.visibilityState === "visible" && refetch.current(), every);
      },
      firstRefetchDone ? every : USER_REFETCH_FIRST_DELAY_S * 1000,
    );
    return () => {
      clearTimeout(first);
      clearInterval(interval);
    };
  }, [member.pushSubscribed]);
  useEffect(() => {
    let ws: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let stopped = false;
    const connect = () => {
      const socket = (ws = new WebSocket(
        `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${HUB_PATH}`,
      ));
      socket.onopen = () => {
        // Marks the page as live (tests wait for it, as for the chat's data-connected).
        document.body.dataset.hub = "";
        // Events missed while disconnected: the counts are re-fetched once after a reconnect.
        if (attempt > 0) refetch.current();
        attempt = 0;
      };
      socket.onmessage = (e) => {
        if (e.data === PONG) return;
        try {
          const event = JSON.parse(String(e.data)) as HubEvent;
          // The page showing that chat marks the message read and re-fetches the counts itself.
          const { pathname } = location;
          if (
            event.kind === "message" &&
            (pathname === `/chats/${event.conversationId}` || pathname === `/members/${event.senderId}/chat`)
          )
            return;
        } catch {
          // Not JSON: re-fetch anyway.
        }
        refetch.current();
      };
      socket.onclose = () => {
        delete document.body.dataset.hub;
        if (!stopped) retry = setTimeout(connect, Math.min(30_000, 1000 * 2 ** attempt++));
      };
    };
    connect();
    const keepalive = setInterval(() => ws?.readyState === WebSocket.OPEN && ws.send(PING), KEEPALIVE_MS);
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearInterval(keepalive);
      ws?.close(1000);
    };
  }, []);
  useEffect(() => {
    // Failing to set the app badge is ignored silently (docs/product/validation.md §8).
    const nav = navigator as Navigator & {
      setAppBadge?: (n: number) => Promise<void>;
      clearAppBadge?: () => Promise<void>;
    };
    (total > 0 ? nav.setAppBadge?.(total) : nav.clearAppBadge?.())?.catch(() => {});
  }, [total]);
  return null;
}
