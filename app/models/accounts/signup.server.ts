/** Accounts: sign-up by a mailed link (decision 224), the new account, and its activation. */
import { type Gender, type Seeking, type Tracking, NICHE_WHO, sexualityOf } from "../signup-rules";
import { type Language, MARKETING_TYPES } from "~/lib/constants";
import {
  type AccountEnv,
  normalizeEmail,
  emailState,
  takeDailyQuota,
  HOUR,
  sendAccountMail,
  type EmailState,
  RESET_MAILS_PER_DAY,
  confirmAddress,
  type AccountHolder,
} from "./common.server";
import { type BrandWithCompany, nicheOf } from "../brand.server";
import { nowS } from "~/lib/dates";
import { hashPassword, randomId } from "~/lib/password";
import { getDb, schema, toStatement } from "../../../db/client";
import { tokenHash, peekToken, newToken } from "../tokens.server";
import { and, eq, isNull, gt, ne } from "drizzle-orm";
import { signupFlagStatements } from "../disposable.server";
import { outboxStatement, settleWallet } from "../../wallet/outbox.server";
import { countEvent } from "~/lib/metrics.server";
import { requestReactivation } from "./deletion.server";
import { startAndSend } from "../chat.server";
import type { BatchItem } from "drizzle-orm/batch";

export const ACTIVATION_MAILS_PER_DAY = 3;

export interface SignupInput {
  email: string;
  name: string;
  dateOfBirth: string;
  password: string;
  signupMessage?: string;
  signupProfileId?: string;
  /** Missing answers take the niche's default (NICHE_WHO). */
  gender?: Gender;
  seeking?: Seeking;
  /** Ticked the opt-in to marketing mails (MARKETING_TYPES); without it they stay off (decisions 180, 213). */
  marketing?: boolean;
}

/** How long a sign-up's confirmation link works (decision 224). */
export const SIGNUP_CONFIRM_HOURS = 24;
/** Confirmation mails one address can be sent per day and brand (a stranger cannot flood an inbox). */
export const SIGNUP_MAILS_PER_DAY = 3;

/** What a sign-up form collected, kept with its confirmation link until the link is followed (decision 224). */
interface PendingSignup {
  email: string;
  name: string;
  dateOfBirth: string;
  passwordHash: string;
  signupMessage: string | null;
  signupProfileId: string | null;
  gender: Gender;
  seeking: Seeking;
  marketing: boolean;
  tracking: Tracking;
  language: Language;
  country: string;
}

/**
 * A sign-up (docs/product/roles.md §6, decision 224): the answer is the same "check your e-mail" whether the
 * address is new or known, so it returns nothing a route could tell apart. A new address gets a link
 * that creates the account (confirmSignup); what the form collected waits with the link's hash in
 * signup_requests, the password only as its hash. A known address's owner gets a way in instead
 * (mailOwnerOfKnownAddress), never a second account. Both paths hash the password, take a daily mail
 * quota and send at most one mail, so neither is noticeably quicker.
 */
export async function requestSignup(
  env: AccountEnv,
  brand: BrandWithCompany,
  input: SignupInput,
  o: { tracking: Tracking; language: Language; country: string; origin: string },
  now = nowS(),
): Promise<void> {
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password, env.PASSWORD_PEPPER);
  const state = await emailState(env.DB, brand.id, email);
  if (state !== "free") {
    await mailOwnerOfKnownAddress(env, brand, email, state, o.origin);
    return;
  }
  if (!(await takeDailyQuota(env.DB, `signup-confirm:${brand.id}:${email}`, SIGNUP_MAILS_PER_DAY, now))) return;
  const who = NICHE_WHO[nicheOf(brand)];
  const pending: PendingSignup = {
    email,
    name: input.name.trim(),
    dateOfBirth: input.dateOfBirth,
    passwordHash,
    signupMessage: input.signupMessage?.trim() || null,
    signupProfileId: input.signupProfileId || null,
    gender: who.fixed ? who.gender : (input.gender ?? who.gender),
    seeking: who.fixed ? who.seeking : (input.seeking ?? who.seeking),
    marketing: !!input.marketing,
    tracking: o.tracking,
    language: o.language,
    country: brand.countries.includes(o.country) ? o.country : (brand.countries[0] ?? o.country),
  };
  const token = randomId(24);
  await getDb(env.DB)
    .insert(schema.signupRequests)
    .values({
      idHash: await tokenHash(token),
      brandId: brand.id,
      email,
      payload: JSON.stringify(pending),
      expiresAt: now + SIGNUP_CONFIRM_HOURS * HOUR,
      createdAt: now,
    });
  await sendAccountMail(
    env,
    brand,
    { id: "", email, name: pending.name, language: o.language },
    "signupConfirm",
    token,
    o.origin,
    email,
    {
      hours: SIGNUP_CONFIRM_HOURS,
    },
  );
}

/** Whether a sign-up link of this brand can still be followed (to show its button), without using it. */
export async function signupLinkUsable(d1: D1Database, brand: Pick<BrandWithCompany, "id">, token: string) {
  if (!token) return false;
  const R = schema.signupRequests;
  const [row] = await getDb(d1)
    .select({ email: R.email })
    .from(R)
    .where(and(eq(R.idHash, await tokenHash(token)), usableSignup(brand.id, nowS())));
  return !!row;
}

const usableSignup = (brandId: number, now: number) => {
  const R = schema.signupRequests;
  return and(eq(R.brandId, brandId), isNull(R.usedAt), gt(R.expiresAt, now));
};

export type SignupConfirmation =
  | { ok: true; userId: string; conversationId: string | null }
  | { ok: false; reason: "invalid" | "taken" };

/**
 * Follows a sign-up link (decision 224): the link is used (one conditional UPDATE: two clicks never both
 * succeed; only this brand's, unused and unexpired), then the account is created confirmed, since
 * following the link proved the address. "taken": the address got an account meanwhile (another of its
 * links was followed first); the link is spent either way. If creating the account fails otherwise, the
 * link is given back, so the member can try again.
 */
export async function confirmSignup(
  env: AccountEnv,
  brand: BrandWithCompany,
  token: string,
  now = nowS(),
): Promise<SignupConfirmation> {
  if (!token || token.length > 100) return { ok: false, reason: "invalid" };
  const db = getDb(env.DB);
  const R = schema.signupRequests;
  const hash = await tokenHash(token);
  const [row] = await db
    .update(R)
    .set({ usedAt: now })
    .where(and(eq(R.idHash, hash), usableSignup(brand.id, now)))
    .returning({ payload: R.payload });
  if (!row) return { ok: false, reason: "invalid" };
  const pending = JSON.parse(row.payload) as PendingSignup;
  try {
    const created = await createAccount(env, brand, pending, hash, now);
    if (!created) return { ok: false, reason: "taken" };
    return { ok: true, ...created };
  } catch (e) {
    await db.update(R).set({ usedAt: null }).where(eq(R.idHash, hash));
    throw e;
  }
}

/**
 * Creates a member from a confirmed sign-up: user (confirmed), active profile, the brand's sign-up credits
 * (to their wallet, by the outbox), the marketing opt-outs, in one D1 batch that also drops the
 * address's other sign-up links. Null when the address already has an account (the unique index
 * decides, also between two links followed at once). Location is filled in later (/complete-signup).
 */
async function createAccount(
  env: AccountEnv,
  brand: BrandWithCompany,
  p: PendingSignup,
  usedHash: string,
  now: number,
): Promise<{ userId: string; conversationId: string | null } | null> {
  const d1 = env.DB;
  const id = randomId();
  const credits = Math.max(0, brand.signupCredits);
  const db = getDb(d1);
  const t = p.tracking;
  const R = schema.signupRequests;
  // One D1 batch: the account, its profile, the address's other links dropped, its flags and (below) its sign-up credits' outbox row.
  const statements = [
    db.insert(schema.users).values({
      id,
      brandId: brand.id,
      email: p.email,
      passwordHash: p.passwordHash,
      language: p.language,
      status: "confirmed",
      network: t.network,
      ref: t.ref,
      sub1: t.sub1,
      sub2: t.sub2,
      sub3: t.sub3,
      lb: t.lb,
      signupMessage: p.signupMessage,
      signupProfileId: p.signupProfileId,
      // Born with a wallet (its credits come through the outbox): nothing of it in D1 to move (decision 194).
      walletAt: now,
      createdAt: now,
      lastSeenAt: now,
    }),
    db.insert(schema.profiles).values({
      userId: id,
      name: p.name,
      status: "active",
      gender: p.gender,
      sexuality: sexualityOf(p.gender, p.seeking),
      dateOfBirth: p.dateOfBirth,
      country: p.country,
    }),
    db.delete(R).where(and(eq(R.brandId, brand.id), eq(R.email, p.email), ne(R.idHash, usedHash))),
    // A disposable address opens a case for a moderator (decision 176); it never refuses the sign-up.
    ...(await signupFlagStatements(db, { id, brandId: brand.id, email: p.email })),
    // Marketing only by opt-in: without the ticked box every MARKETING_TYPES mail starts switched off.
    ...(p.marketing
      ? []
      : MARKETING_TYPES.map((type) =>
          db.insert(schema.notificationsDisabled).values({ userId: id, type, reason: "user" }),
        )),
  ].map((q) => toStatement(d1, q));
  // The sign-up credits: an outbox row in the account's batch, applied to the new wallet just after (decision 189).
  if (credits > 0)
    statements.push(
      outboxStatement(
        d1,
        { userId: id, kind: "apply", key: `signup:${id}`, delta: credits, reason: "signup", refId: null },
        { afterChange: false },
      ),
    );
  try {
    await d1.batch(statements);
  } catch (e) {
    // Two links of one address followed at once, or an account made meanwhile: the unique index decides.
    if (String(e).includes("UNIQUE")) return null;
    throw e;
  }
  if (credits > 0) await settleWallet(env, id);
  countEvent(env, "signup", { brandId: brand.id });
  const conversationId =
    p.signupMessage && p.signupProfileId
      ? await sendSignupMessage(env, brand, id, p.signupProfileId, p.signupMessage)
      : null;
  return { userId: id, conversationId };
}

/**
 * A sign-up (or an e-mail change, decision 238) with an address that already has an account (decision
 * 202): the page answers as for a new one, and the owner gets the mail instead: a way to log in or choose a new password, or, for an account
 * pending deletion, the reactivation link. At most RESET_MAILS_PER_DAY a day per account, silently, so a
 * stranger cannot flood the owner's inbox nor learn from the answer that the address is known.
 */
export async function mailOwnerOfKnownAddress(
  env: AccountEnv,
  brand: BrandWithCompany,
  email: string,
  state: Exclude<EmailState, "free">,
  origin: string,
  kind: "signupKnown" | "mailChangeKnown" = "signupKnown",
) {
  if (state === "pending_deletion") {
    await requestReactivation(env, brand, email, origin);
    return;
  }
  const { users, profiles } = schema;
  const [user] = await getDb(env.DB)
    .select({ id: users.id, email: users.email, language: users.language, name: profiles.name })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(users.brandId, brand.id), eq(users.email, email), isNull(users.deletedAt)));
  if (!user || !(await takeDailyQuota(env.DB, `signup-known:${user.id}`, RESET_MAILS_PER_DAY))) return;
  await sendAccountMail(env, brand, user, kind, null, origin, user.email, {
    resetLink: `${origin}/reset-password`,
  });
}

/** The sign-up message's client id: one per member, so a retried delivery is stored once. */
const SIGNUP_MESSAGE_CLIENT_ID = "signup-message";

/**
 * The sign-up message (docs/product/data.md §3) becomes the new member's first message to the member whose
 * landing they signed up on: free, and one of their free conversations, sent as the account is created
 * from the confirmed link (decision 224). Only to an existing member of the same brand. Returns the
 * conversation, or null.
 */
async function sendSignupMessage(
  env: AccountEnv,
  brand: BrandWithCompany,
  userId: string,
  profileId: string,
  body: string,
) {
  const { users } = schema;
  const [target] = await getDb(env.DB)
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, profileId), eq(users.brandId, brand.id), isNull(users.deletedAt)));
  if (!target) return null;
  const sent = await startAndSend(env, { id: userId, credits: 0 }, profileId, {
    clientId: SIGNUP_MESSAGE_CLIENT_ID,
    kind: "text",
    body: body.slice(0, brand.messageLength),
    prices: { message: 0, gift: 0 },
  });
  return sent.ok ? sent.id : null;
}

/** Activation from its link: confirms the address (see confirmAddress). Returns the member, or null. */
export async function activate(env: AccountEnv, token: string): Promise<string | null> {
  const row = await peekToken(env.DB, token, "activate");
  if (!row) return null;
  if (!(await confirmAddress(env, row.userId, token, "activate"))) return null;
  countEvent(env, "activation");
  return row.userId;
}

/**
 * A new activation link for a not yet confirmed member, at most ACTIVATION_MAILS_PER_DAY a day.
 * `extra` joins the token's batch (the console's audit row, decision 177).
 */
export async function resendActivation(
  env: AccountEnv,
  brand: BrandWithCompany,
  member: AccountHolder,
  origin: string,
  extra: BatchItem<"sqlite">[] = [],
) {
  if (member.status === "confirmed") return "confirmed" as const;
  if (!(await takeDailyQuota(env.DB, `activate:${member.id}`, ACTIVATION_MAILS_PER_DAY))) return "too_many" as const;
  const db = getDb(env.DB);
  const { token, statement } = await newToken(db, member.id, "activate");
  await db.batch([statement, ...extra]);
  await sendAccountMail(env, brand, member, "activate", token, origin);
  return "sent" as const;
}
