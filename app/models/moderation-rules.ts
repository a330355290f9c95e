/**
 * Pure rules of moderation decisions (decisions 167, 173), shared by the moderation model, the chat
 * and the scheduled lift without importing either.
 */
import { nowS } from "~/lib/dates";
import type { DecisionAction } from "../../db/schema";
import type { MessageKind } from "~/chat/protocol";

/** Decisions that last N days (the console's form asks for the days). */
export const hasDays = (action: DecisionAction) => action === "suspend" || action === "restrict_messaging";

/** The one rule for "may not send messages now"; the chat's guarded send states the same in SQL. */
export const messagingRestricted = (until: number | null | undefined, now = nowS()) => until != null && until > now;

/** A decision's date (its time, its end) as statements and the chat show it, in the member's language. */
export const decisionDate = (lng: string, at: number) =>
  new Intl.DateTimeFormat(lng, { dateStyle: "long", timeZone: "UTC" }).format(new Date(at * 1000));

/** What a content decision removed (kept in `decisions.removed` for its appeal). */
export type RemovedContent = {
  aboutMe?: string;
  /** The display name before a reset, and the one it was reset to. */
  name?: string;
  resetTo?: string;
  photoId?: string;
  held?: boolean;
  message?: {
    conversationId: string;
    seq: number;
    clientId: string;
    kind: MessageKind;
    body: string;
    giftId: string | null;
    createdAt: number;
  };
};

/** The removed text of a decision (profile text, display name, message), for the appeal's moderator. */
export function removedText(removed: unknown): string | null {
  const r = (removed ?? {}) as RemovedContent;
  return r.aboutMe ?? r.name ?? r.message?.body ?? null;
}

/**
 * The sections of the terms in the words the Transparency Database publishes as the incompatible
 * content ground (and the console shows): English, the database's language.
 */
export const RULE_LABELS: Record<string, string> = {
  age: "Minimum age",
  consent: "Consent to intimate images",
  illegal: "Illegal content",
  fraud: "Fraud and scams",
  conduct: "Respectful conduct",
  commercial: "No advertising or paid services",
  identity: "Real identity and one account",
};
