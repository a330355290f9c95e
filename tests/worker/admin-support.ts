/** Operators for worker tests: accounts of each role and their session cookies, as /admin/login would set them. */
import { env } from "cloudflare:test";
import { hashPassword, randomId, sha256 } from "../../app/lib/password";
import type { OperatorRole } from "../../db/schema";
import { db } from "./fixtures";
import * as schema from "../../db/schema";

export const OPERATOR_PASSWORD = "Op-test-pass-2026";
let hash: Promise<string> | null = null;

export async function createOperator(role: OperatorRole, o: { totpSecret?: string; disabled?: boolean } = {}) {
  const id = `op-${randomId(6)}`;
  const email = `${id.toLowerCase()}@ops.example.com`;
  hash ??= hashPassword(OPERATOR_PASSWORD, env.PASSWORD_PEPPER);
  await db()
    .insert(schema.operators)
    .values({
      id,
      email,
      name: `Test ${role}`,
      role,
      passwordHash: await hash,
      totpSecret: o.totpSecret ?? null,
      disabled: o.disabled ?? false,
    });
  return { id, email, role };
}

/** "op_sid=…" for an operator, as the login sets it (path /admin). */
export async function operatorCookie(operatorId: string): Promise<string> {
  const { createCookie } = await import("@remix-run/cloudflare");
  const sid = `ops-${crypto.randomUUID()}`;
  await db()
    .insert(schema.operatorSessions)
    .values({ idHash: await sha256(sid), operatorId, expiresAt: Math.floor(Date.now() / 1000) + 3600 });
  return (await createCookie("op_sid", { secrets: [env.SESSION_SECRET] }).serialize(sid)).split(";")[0]!;
}

export async function auditRows(targetId: string) {
  const { eq } = await import("drizzle-orm");
  return db().select().from(schema.auditLog).where(eq(schema.auditLog.targetId, targetId)).orderBy(schema.auditLog.id);
}
