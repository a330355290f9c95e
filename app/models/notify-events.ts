/**
 * The events the notification queue carries (wrangler.toml NOTIFY_QUEUE): produced by the chat, likes
 * and the Cron Trigger, consumed by app/models/notify.server.ts. Plain data, so any module may import it.
 */
export type DigestType = "unread_reminder" | "new_members" | "reminders";
export type CampaignType = "promotions" | "news";

export type NotifyEvent =
  /**
   * A message reached a receiver who is not in that conversation (only the first unread one: one mail
   * per conversation until read). The first message of a conversation counts as a new conversation.
   */
  | { kind: "message"; conversationId: string; senderId: string; receiverId: string; messageId: number }
  /** A like (a match when the liked member already liked the liker back). */
  | { kind: "like"; likerId: string; likedId: string }
  /** A scheduled mail to one member; `ref` makes it once per period (e.g. the ISO week). */
  | { kind: "digest"; type: DigestType; userId: string; ref: string }
  /** An operator's promotion or news to one member; `ref` names the campaign, `path` is where it leads. */
  | { kind: "campaign"; type: CampaignType; userId: string; ref: string; path: string; campaignId?: number };

/** The next page of a campaign's audience (decision 183): enqueues its members' events and the page after. */
export type CampaignPage = { kind: "campaign_page"; campaignId: number };

/** What the notification queue carries: an event for one member, or a campaign's page. */
export type NotifyMessage = NotifyEvent | CampaignPage;

/** Everything the notification queue's consumer takes (the data moves have their own queue, decision 194). */
export type QueuedMessage = NotifyMessage;
