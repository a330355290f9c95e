/**
 * Which of the chrome's member alerts (docs/product/states.md §4) a page shows: the one rule every alert asks.
 * On the payment pages none shows: a member who is paying sees what they buy and the pay button on
 * the first screen of a phone (decision 151). What a payment page says about the payment itself (its
 * state, the welcome offer, a used try-out) is the page's own content, not a chrome alert.
 */
import { signupStepOf } from "./nav";

export type MemberAlert = "activation" | "push" | "disabledNotifications" | "photo";

/** Credits, premium, payment method, direct debit, repeat order (/credits/…) and payment results. */
const PAYMENT_PAGES = ["/credits", "/premium", "/directdebit", "/transactions"];

/** docs/product/states.md §4: the screens where each alert is not shown. */
const HIDDEN_ON: Record<MemberAlert, string[]> = {
  activation: ["/signup", "/settings", "/notifications"],
  push: ["/signup", "/complete-signup", "/signup-matches", "/notifications", "/activate/done"],
  disabledNotifications: ["/settings", "/notifications"],
  photo: ["/profile", "/signup", "/signup-matches", "/activate/done", "/notifications", "/settings"],
};

/** The sign-up step that asks for what an alert asks does not get that alert on top. */
const SIGNUP_STEP: Partial<Record<MemberAlert, string>> = { activation: "confirm", photo: "photo" };

const under = (pathname: string, paths: string[]) => paths.some((p) => pathname === p || pathname.startsWith(`${p}/`));

export function isPaymentPage(pathname: string): boolean {
  return under(pathname, PAYMENT_PAGES);
}

export function memberAlertShown(alert: MemberAlert, pathname: string, search = ""): boolean {
  if (isPaymentPage(pathname) || under(pathname, HIDDEN_ON[alert])) return false;
  // The sign-up of a member landing (/members/{id}/signup) asks for a photo itself.
  if (alert === "photo" && /^\/members\/[^/]+\/signup/.test(pathname)) return false;
  const step = SIGNUP_STEP[alert];
  return !step || signupStepOf(pathname, search) !== step;
}

/**
 * One member prompt at a time (decision 179). The server lists the prompts a member may get,
 * most important first; a page shows only the first of them that it may show (memberAlertShown), so a
 * phone never stacks banners. Push is asked at a moment that explains it: when someone has just
 * written (an unread message), not on arrival. The time-limited discount comes
 * before the photo reminder, which waits for it to end.
 */
export type MemberPrompt = MemberAlert | "welcomeOffer";

export type PromptFacts = {
  status: string;
  profileStatus: string;
  notificationsDisabled: string[];
  hasMainImage: boolean;
  pushSubscribed: boolean;
  unreadMessages: number;
  newLikes: number;
};

export function memberPrompts(m: PromptFacts, welcomeOffer: boolean): MemberPrompt[] {
  const all: [MemberPrompt, boolean][] = [
    ["activation", m.status === "not_confirmed" && m.profileStatus === "disabled" && !m.notificationsDisabled.length],
    // Mail that bounced or was switched off reaches the member before any offer does.
    ["disabledNotifications", m.notificationsDisabled.length > 0],
    ["push", !m.pushSubscribed && m.unreadMessages > 0],
    ["welcomeOffer", welcomeOffer],
    ["photo", !m.hasMainImage],
  ];
  return all.filter(([, on]) => on).map(([p]) => p);
}

/** The one prompt this page shows: the first listed that the page may show (the welcome offer: where its banner is). */
export function promptOnPage(prompts: MemberPrompt[] | undefined, pathname: string, search = ""): MemberPrompt | null {
  return (prompts ?? []).find((p) => p === "welcomeOffer" || memberAlertShown(p, pathname, search)) ?? null;
}
