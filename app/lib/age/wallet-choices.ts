/**
 * The development wallet's answers (/dev/age-wallet, decision 185). Not in a `.server` module: the
 * wallet page renders them in the browser too, where a `.server` import is an empty module (its
 * values undefined), and hydration of the page failed on that.
 */
export const WALLET_CHOICES = ["valid", "under_18", "expired", "wrong_issuer", "replayed"] as const;
export type WalletChoice = (typeof WALLET_CHOICES)[number];
