/** Helpers for the members tests: richer members than fixtures.createMember, and photo rows. */
import { env } from "cloudflare:test";
import { createMember, post } from "./fixtures";

export async function member(
  o: Parameters<typeof createMember>[0] &
    Partial<{
      sexuality: string;
      region: string;
      city: string;
      invisible: boolean;
      lastSeenAt: number;
      fictional: boolean;
      lat: number;
      lon: number;
      interests: string[];
      hairColour: string;
    }> = {},
) {
  const m = await createMember(o);
  await env.DB.batch([
    env.DB.prepare(
      `UPDATE profiles SET sexuality = ?2, region = ?3, city = ?4, fictional = ?5, lat = ?6, lon = ?7, hair_colour = ?8 WHERE user_id = ?1`,
    ).bind(
      m.id,
      o.sexuality ?? "hetero",
      o.region ?? "",
      o.city ?? "",
      o.fictional ? 1 : 0,
      o.lat ?? null,
      o.lon ?? null,
      o.hairColour ?? null,
    ),
    env.DB.prepare("UPDATE users SET invisible = ?2, last_seen_at = ?3 WHERE id = ?1").bind(
      m.id,
      o.invisible ? 1 : 0,
      o.lastSeenAt ?? Math.floor(Date.now() / 1000) - 86400,
    ),
    ...(o.interests ?? []).map((i) =>
      env.DB.prepare("INSERT INTO profile_interests (user_id, interest_id) VALUES (?1, ?2)").bind(m.id, i),
    ),
  ]);
  return m;
}

export const likeAs = (cookie: string, targetId: string) =>
  post(`/members/${targetId}`, { intent: "like" }, { cookie });

export const deleteUser = (id: string) =>
  env.DB.prepare("UPDATE users SET deleted_at = unixepoch() WHERE id = ?1").bind(id).run();

export const blockRow = (blocker: string, blocked: string) =>
  env.DB.prepare("INSERT INTO blocks (blocker_id, blocked_id) VALUES (?1, ?2)").bind(blocker, blocked).run();

/** A date of birth for someone who is `age` today (birthday half a year ago). */
export function dobForAge(age: number, today = new Date()) {
  const d = new Date(Date.UTC(today.getUTCFullYear() - age, today.getUTCMonth() - 6, 15));
  return d.toISOString().slice(0, 10);
}
