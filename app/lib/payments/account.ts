/**
 * Which Mollie account a brand's money goes to (decision 206): its company's. Each legal entity has
 * its own Mollie organisation and so its own secret, `MOLLIE_API_KEY_<account>`, the account being the
 * company's `mollie_account` (A–Z, 0–9, _). A brand may name its website profile (pfl_…) where the
 * company runs several websites. Nothing here ever returns or logs a key's value: only whether it is
 * there and which mode it is in.
 */
import { isLive, type Env } from "~/lib/env";

/** An account name as a secret's suffix: upper case letters, digits and underscores. */
export const MOLLIE_ACCOUNT_PATTERN = /^[A-Z][A-Z0-9_]{0,39}$/;
/** A Mollie website profile id. */
export const MOLLIE_PROFILE_PATTERN = /^pfl_[A-Za-z0-9]{4,40}$/;

export type AccountCompany = { id: number; name: string; mollieAccount: string | null };
export type AccountBrand = { id: number; mollieProfileId: string | null; company: AccountCompany };

/** The secret that holds a company's key. */
export const mollieKeyName = (account: string) => `MOLLIE_API_KEY_${account}`;

/**
 * The account a payment, customer or mandate lives in: the company's Mollie account, or, for a company
 * without one, a name of its own (`#<company id>`) that no secret can have: the sandbox keeps such a
 * company apart too, and Mollie calls for it fail (no key) instead of using someone else's.
 */
export const accountOf = (company: Pick<AccountCompany, "id" | "mollieAccount">) =>
  company.mollieAccount ?? `#${company.id}`;

/** What a key is: an organisation access token needs the brand's profile id on payments and method lists. */
export type KeyKind = "live" | "test" | "organization";
function kindOf(key: string): KeyKind | null {
  if (key.startsWith("live_")) return "live";
  if (key.startsWith("test_")) return "test";
  if (key.startsWith("access_")) return "organization";
  return null;
}

/** The account's key, or null when its secret is missing (or the account has a name no secret can have). */
export function mollieKey(env: Env, account: string): string | null {
  if (!MOLLIE_ACCOUNT_PATTERN.test(account)) return null;
  const value = (env as unknown as Record<string, unknown>)[mollieKeyName(account)];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}

/** The account's organization access token for its settlements (MOLLIE_ACCESS_TOKEN_<account>), when set. */
export function mollieAccessToken(env: Env, account: string): string | null {
  if (!MOLLIE_ACCOUNT_PATTERN.test(account)) return null;
  const value = (env as unknown as Record<string, unknown>)[`MOLLIE_ACCESS_TOKEN_${account}`];
  return typeof value === "string" && value.trim().startsWith("access_") ? value.trim() : null;
}

export type AccountProblem = "no account" | "key missing" | "wrong kind" | "profile needed";

/** What a brand's Mollie account looks like to the console: never the key, only its presence and mode. */
export type AccountView = {
  company: string;
  account: string | null;
  secret: string | null;
  keyPresent: boolean;
  /** The mode its payments are made in (an organisation token: test outside production). */
  mode: "live" | "test" | null;
  organization: boolean;
  profileId: string | null;
  problem: AccountProblem | null;
};

/**
 * The brand's account as the console shows it, with what stops it taking payments where Mollie is
 * used: no account named, the secret missing, a key of the wrong mode (a test_ key in production, a
 * live_ one elsewhere), or an organisation token for a brand without its profile id.
 */
export function accountView(env: Env, brand: AccountBrand): AccountView {
  const account = brand.company.mollieAccount;
  const key = account ? mollieKey(env, account) : null;
  const kind = key ? kindOf(key) : null;
  const mode = kind === "organization" ? (isLive(env) ? "live" : "test") : kind;
  const problem: AccountProblem | null = !account
    ? "no account"
    : !key
      ? "key missing"
      : !kind || (kind !== "organization" && kind !== (isLive(env) ? "live" : "test"))
        ? "wrong kind"
        : kind === "organization" && !brand.mollieProfileId
          ? "profile needed"
          : null;
  return {
    company: brand.company.name,
    account,
    secret: account ? mollieKeyName(account) : null,
    keyPresent: !!key,
    mode,
    organization: kind === "organization",
    profileId: brand.mollieProfileId,
    problem,
  };
}

/** What the console says about each problem. */
export const ACCOUNT_PROBLEMS: Record<AccountProblem, string> = {
  "no account": "The company has no Mollie account named: production refuses to serve its brands.",
  "key missing": "The company's Mollie key is not set: production refuses to serve its brands.",
  "wrong kind": "The key is of the wrong mode here (production takes live_ keys only, elsewhere test_ keys only).",
  "profile needed": "An organisation access token needs the brand's Mollie profile id.",
};
