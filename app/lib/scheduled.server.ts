import type { Env } from "./env";

/** The daily Cron Trigger: housekeeping jobs (expired sessions, tokens and counters). */
export async function runScheduled(_controller: ScheduledController | null, env: Env) {
  const now = Math.floor(Date.now() / 1000);
  await env.DB.batch([
    env.DB.prepare("DELETE FROM sessions WHERE expires_at < ?").bind(now),
    env.DB.prepare("DELETE FROM tokens WHERE expires_at < ?").bind(now - 86400),
    env.DB.prepare("DELETE FROM counters WHERE expires_at < ?").bind(now),
  ]);
}
