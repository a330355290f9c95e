/**
 * Web Push in the browser (docs/product/states.md §4 and docs/product/api.md §7): the push state of this device, subscribing through
 * the service worker (public/sw.js) and handing the subscription to POST /api/user.php?push=1, and
 * turning it off again. Loaded lazily (never part of the landing page's bundle).
 */
import { apiFetch } from "./api-client";

/** docs/product/states.md §4: unknown (null), subscribed, denied, unsupported. */
export type PushState = "unknown" | "subscribed" | "denied" | "unsupported";

export const SW_URL = "/sw.js";

function supported() {
  return (
    typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window
  );
}

async function registration() {
  return (await navigator.serviceWorker.getRegistration()) ?? (await navigator.serviceWorker.register(SW_URL));
}

export async function pushState(): Promise<PushState> {
  if (!supported()) return "unsupported";
  if (Notification.permission === "denied") return "denied";
  const sub = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
  return sub && Notification.permission === "granted" ? "subscribed" : "unknown";
}

const keyBytes = (b64url: string) =>
  Uint8Array.from(atob(b64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64url.length % 4)) % 4)), (c) =>
    c.charCodeAt(0),
  );

/** Asks for permission, subscribes this device and stores it; answers the new state (throws when saving failed). */
export async function subscribePush(): Promise<PushState> {
  if (!supported()) return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission === "denied") return "denied";
  if (permission !== "granted") return "unknown";
  const { public_key } = (await (await apiFetch("/api/user.php?push=1")).json()) as { public_key: string };
  await registration();
  const reg = await navigator.serviceWorker.ready;
  const sub =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) }));
  const res = await apiFetch("/api/user.php?push=1", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(sub),
  });
  if (!res.ok) throw new Error(`push subscription not saved (${res.status})`);
  return "subscribed";
}

/** Push off for this device: the browser forgets the subscription and so does the server. */
export async function unsubscribePush(): Promise<PushState> {
  const sub = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
  await apiFetch("/api/user.php?push=1", {
    method: "DELETE",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ endpoint: sub?.endpoint }),
  });
  await sub?.unsubscribe().catch(() => false);
  return "unknown";
}
