/**
 * Development operators, one per role, password as the demo members', no second factor (decision
 * 160). Never in production: db/seed.ts refuses to run there, and the Worker has no other way to make
 * an operator than `npm run operator:create`.
 */
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../schema.ts";
import { hashPassword, randomId } from "../../app/lib/password.ts";

export const DEMO_OPERATORS = [
  { email: "operator@example.com", name: "Olivia Operator", role: "admin" },
  { email: "moderator@example.com", name: "Milan Moderator", role: "moderator" },
  { email: "support@example.com", name: "Sanne Support", role: "support" },
  { email: "finance@example.com", name: "Finn Finance", role: "finance" },
  { email: "team@example.com", name: "Tara Team", role: "chat_team" },
] as const;

/** Adds the demo operators that are missing (kept across reseeds, so the audit log keeps its names). */
export async function seedOperators(DB: D1Database, pepper: string, password: string): Promise<number> {
  const passwordHash = await hashPassword(password, pepper);
  const rows = await drizzle(DB, { schema })
    .insert(schema.operators)
    .values(DEMO_OPERATORS.map((o) => ({ id: randomId(), ...o, passwordHash })))
    .onConflictDoNothing()
    .returning({ id: schema.operators.id });
  return rows.length;
}
