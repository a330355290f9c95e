/**
 * Apple Pay is offered only where the browser can pay with it (Mollie's Apple Pay guide:
 * ApplePaySession.canMakePayments()). The server cannot know, so the page renders without it and the
 * browser adds it once checked. Without JavaScript it stays hidden: Apple Pay on the web needs
 * JavaScript anyway, and a member on an Apple device still pays by card.
 */
import { useEffect, useState } from "react";

type ApplePayWindow = { ApplePaySession?: { canMakePayments?: () => boolean } };

export function useWalletMethods(methods: readonly string[]): string[] {
  const [applePay, setApplePay] = useState(false);
  useEffect(() => {
    try {
      setApplePay(!!(window as unknown as ApplePayWindow).ApplePaySession?.canMakePayments?.());
    } catch {
      setApplePay(false);
    }
  }, []);
  return methods.filter((m) => m !== "applepay" || applePay);
}
