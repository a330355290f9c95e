/**
 * Direct access to the end-to-end server's local D1 and R2 (the state tests/e2e/server.sh creates),
 * through wrangler's getPlatformProxy, so a test can set up its own members without any test-only
 * route in the Worker. Open it once per file (it starts a local runtime), dispose it after.
 *
 *   const db = await openE2eDb();
 *   const alice = await db.createMember({ name: "Alice", password: "pw" });
 *   await db.dispose();
 */
import { getPlatformProxy } from "wrangler";
import { hashPassword } from "../../../app/lib/password.ts";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8788);
/** wrangler.toml's development pepper (the e2e server only overrides ENVIRONMENT). */
const PEPPER = "dev-pepper-not-for-production";

export interface NewMember {
  email?: string; password?: string; name?: string; gender?: "male" | "female"; sexuality?: string; country?: string;
  region?: string; city?: string; dateOfBirth?: string; paidUser?: boolean; credits?: number; brandId?: number;
  status?: "confirmed" | "not_confirmed";
}

let seq = 0;

export async function openE2eDb(port = E2E_PORT) {
  const proxy = await getPlatformProxy<{ DB: D1Database; PHOTOS: R2Bucket }>({
    persist: { path: `.wrangler/e2e-${port}/v3` },
  });
  const { DB, PHOTOS } = proxy.env;
  return {
    DB,
    PHOTOS,
    /** A member (user + profile) who can log in at /login with `password`. */
    async createMember(o: NewMember = {}) {
      seq += 1;
      const id = `e2e-${Date.now().toString(36)}-${process.pid}-${seq}-${Math.random().toString(36).slice(2, 8)}`;
      const email = o.email ?? `${id}@example.com`;
      const password = o.password ?? "E2e-pass-2026";
      const name = o.name ?? `E2E ${seq}`;
      await DB.batch([
        DB.prepare(
          `INSERT INTO users (id, brand_id, email, password_hash, paid_user, credits, status, last_seen_at)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, unixepoch())`,
        ).bind(id, o.brandId ?? 1, email, await hashPassword(password, PEPPER), o.paidUser ? 1 : 0, o.credits ?? 0, o.status ?? "confirmed"),
        DB.prepare(
          `INSERT INTO profiles (user_id, name, gender, sexuality, date_of_birth, country, region, city)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)`,
        ).bind(id, name, o.gender ?? "female", o.sexuality ?? "hetero", o.dateOfBirth ?? "1992-06-15",
          o.country ?? "NL", o.region ?? "", o.city ?? ""),
      ]);
      return { id, email, password, name };
    },
    async like(likerId: string, likedId: string) {
      await DB.prepare("INSERT INTO likes (liker_id, liked_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING").bind(likerId, likedId).run();
    },
    dispose: () => proxy.dispose(),
  };
}

export type E2eDb = Awaited<ReturnType<typeof openE2eDb>>;
