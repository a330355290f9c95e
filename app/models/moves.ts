/**
 * What the data-moves queue carries (wrangler.toml MOVES_QUEUE, decisions 189/190/194): the pages of the
 * one-time moves of D1's data into the objects. Plain data, so any module may import it.
 */
export type DataMove =
  /** The next page of D1's messages into their conversations' objects (decision 190). */
  | { kind: "chat_migrate" }
  /** The next page of members' balances and ledgers into their wallets (decision 189). */
  | { kind: "wallet-migrate"; after?: string };
