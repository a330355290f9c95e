import { sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import type { Env } from "./env";

/**
 * Whether the Worker's stores answer: one trivial D1 query, one R2 head (a missing key is an answer),
 * and the notification queue's producer binding (a queue cannot be probed without enqueueing a message,
 * and an empty batch is refused, so its presence is what is checked).
 */
export async function readiness(
  env: Pick<Env, "DB" | "PHOTOS" | "NOTIFY_QUEUE">,
): Promise<{ d1: boolean; r2: boolean; queue: boolean }> {
  const ok = (p: Promise<unknown>) =>
    p.then(
      () => true,
      () => false,
    );
  const [d1, r2, queue] = await Promise.all([
    ok(getDb(env.DB).run(sql`SELECT 1`)),
    ok(env.PHOTOS.head("readyz")),
    Promise.resolve(typeof env.NOTIFY_QUEUE?.send === "function"),
  ]);
  return { d1, r2, queue };
}
