import type { DrizzleD1Database } from "drizzle-orm/d1";
import type * as schema from "../schema.ts";

/** Placeholder until the member seed lands: no members yet. */
export async function seedMembers(_: { DB: D1Database; PHOTOS: R2Bucket; db: DrizzleD1Database<typeof schema> }) {}
