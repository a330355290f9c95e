/**
 * Test data in the end-to-end server's D1 (the state tests/e2e/server.sh creates), so a test can set
 * up its own members.
 *
 *   const db = e2eDb();          // or the `db` fixture of support/fixtures.ts
 *   const alice = await db.createMember({ name: "Alice", password: "pw" });
 */
import { hashPassword } from "../../../app/lib/password.ts";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8788);
/** wrangler.toml's development pepper (the e2e server only overrides ENVIRONMENT). */
const PEPPER = "dev-pepper-not-for-production";

export interface NewMember {
  email?: string;
  password?: string;
  name?: string;
  gender?: "male" | "female";
  sexuality?: string;
  country?: string;
  region?: string;
  city?: string;
  dateOfBirth?: string;
  paidUser?: boolean;
  credits?: number;
  brandId?: number;
  status?: "confirmed" | "not_confirmed";
  language?: string;
  /** "disabled" with status not_confirmed: a member just signed up, address not confirmed yet. */
  profileStatus?: "active" | "disabled";
}

let seq = 0;
// Test passwords need no production strength: a cheap hash per password keeps set-up fast.
const hashes = new Map<string, Promise<string>>();
const hashOf = (password: string) => {
  if (!hashes.has(password)) hashes.set(password, hashPassword(password, PEPPER, 1000));
  return hashes.get(password)!;
};

/**
 * A D1-shaped client whose statements run inside the e2e server (POST /dev/sql, which exists only
 * under ENVIRONMENT=test): one process owns the SQLite files, so nothing is ever found locked.
 */
type Sent = { sql: string; params: unknown[] };
const sent = new WeakMap<object, Sent>();
function serverDb(base: string): D1Database {
  const call = async (statements: Sent[], mode: string, column?: string) => {
    const res = await fetch(`${base}/dev/sql`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ statements, mode, column }),
    });
    if (!res.ok) throw new Error(`/dev/sql ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { result: unknown }).result;
  };
  const statement = (s: Sent): D1PreparedStatement => {
    const stmt = {
      bind: (...params: unknown[]) => statement({ sql: s.sql, params }),
      first: (column?: string) => call([s], "first", column),
      all: () => call([s], "all"),
      run: () => call([s], "run"),
    } as unknown as D1PreparedStatement;
    sent.set(stmt, s);
    return stmt;
  };
  return {
    prepare: (sql: string) => statement({ sql, params: [] }),
    batch: (statements: D1PreparedStatement[]) =>
      call(
        statements.map((x) => sent.get(x)!),
        "batch",
      ),
  } as unknown as D1Database;
}

const opened = new Map<number, ReturnType<typeof open>>();
/** The client for the e2e server on `port` (one per port; it holds no connection, nothing to close). */
export function e2eDb(port = E2E_PORT) {
  if (!opened.has(port)) opened.set(port, open(port));
  return opened.get(port)!;
}

function open(port: number) {
  const base = `http://localhost:${port}`;
  const DB = serverDb(base);
  /**
   * Gives (or, negative, takes) a member's credits as the console does: an outbox row delivered to
   * their wallet at once (POST /dev/wallet, ENVIRONMENT=test only), so the wallet's balance, its
   * ledger row and D1's copy are what a real grant leaves. `key` makes it count once (e.g. payment:<id>).
   */
  const credits = async (
    userId: string,
    amount: number,
    o: { key?: string; reason?: "adjustment" | "purchase" | "signup" | "message"; refId?: string } = {},
  ): Promise<number> => {
    const res = await fetch(`${base}/dev/wallet`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ userId, credits: amount, ...o }),
    });
    if (!res.ok) throw new Error(`/dev/wallet ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { balance: number }).balance;
  };
  return {
    DB,
    /** A member (user + profile) who can log in at /login with `password`. */
    async createMember(o: NewMember = {}) {
      seq += 1;
      const id = `e2e-${Date.now().toString(36)}-${process.pid}-${seq}-${Math.random().toString(36).slice(2, 8)}`;
      const email = o.email ?? `${id}@example.com`;
      const password = o.password ?? "E2e-pass-2026";
      const name = o.name ?? `E2E ${seq}`;
      await DB.batch([
        DB.prepare(
          `INSERT INTO users (id, brand_id, email, password_hash, paid_user, status, language, last_seen_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, unixepoch())`,
        ).bind(
          id,
          o.brandId ?? 1,
          email,
          await hashOf(password),
          o.paidUser ? 1 : 0,
          o.status ?? "confirmed",
          o.language ?? "en",
        ),
        DB.prepare(
          `INSERT INTO profiles (user_id, name, gender, sexuality, date_of_birth, country, region, city, status)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)`,
        ).bind(
          id,
          name,
          o.gender ?? "female",
          o.sexuality ?? "hetero",
          o.dateOfBirth ?? "1992-06-15",
          o.country ?? "NL",
          o.region ?? "",
          o.city ?? "",
          o.profileStatus ?? "active",
        ),
      ]);
      if (o.credits) await credits(id, o.credits);
      return { id, email, password, name };
    },
    credits,
    /**
     * A conversation `from` started with `to`, its last message now: `unread` of it unread for `to`
     * (none for `from`), `preview` as the chat list shows it. Returns its id.
     */
    async conversation(
      to: string,
      from: string,
      o: { id?: string; unread?: number; preview?: string | null } = {},
    ): Promise<string> {
      const id = o.id ?? `c-${to}`.slice(0, 60);
      const [a, b] = [to, from].sort();
      await DB.batch([
        DB.prepare(
          "INSERT INTO conversations (id, member_a, member_b, started_by, last_message_at, last_message_preview) VALUES (?1, ?2, ?3, ?4, unixepoch(), ?5)",
        ).bind(id, a, b, from, o.preview === undefined ? "Hi" : o.preview),
        DB.prepare(
          "INSERT INTO conversation_members (conversation_id, user_id, unread) VALUES (?1, ?2, ?3), (?1, ?4, 0)",
        ).bind(id, to, o.unread ?? 0, from),
      ]);
      return id;
    },
    async like(likerId: string, likedId: string) {
      await DB.prepare("INSERT INTO likes (liker_id, liked_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING")
        .bind(likerId, likedId)
        .run();
    },
  };
}

export type E2eDb = ReturnType<typeof e2eDb>;
