import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { USER_REFETCH_FIRST_DELAY_S, USER_REFETCH_INTERVAL_PUSH_S, USER_REFETCH_INTERVAL_S } from "~/lib/constants";

type Counts = { unreadMessages: number; newLikes: number; pushSubscribed: boolean };

/**
 * Re-fetches the member (and with them chats and likes counts) every 60 s, or 300 s with push,
 * first after 5 s (SPEC section 9), and mirrors unread messages plus new likes on the app badge.
 */
export function LiveCounts({ member }: { member: Counts }) {
  const { revalidate } = useRevalidator();
  const total = member.unreadMessages + member.newLikes;
  useEffect(() => {
    const every = (member.pushSubscribed ? USER_REFETCH_INTERVAL_PUSH_S : USER_REFETCH_INTERVAL_S) * 1000;
    let interval: ReturnType<typeof setInterval> | undefined;
    const first = setTimeout(() => {
      revalidate();
      interval = setInterval(() => document.visibilityState === "visible" && revalidate(), every);
    }, USER_REFETCH_FIRST_DELAY_S * 1000);
    return () => {
      clearTimeout(first);
      clearInterval(interval);
    };
  }, [member.pushSubscribed, revalidate]);
  useEffect(() => {
    // Failing to set the app badge is ignored silently (SPEC section 8).
    const nav = navigator as Navigator & { setAppBadge?: (n: number) => Promise<void>; clearAppBadge?: () => Promise<void> };
    (total > 0 ? nav.setAppBadge?.(total) : nav.clearAppBadge?.())?.catch(() => {});
  }, [total]);
  return null;
}
