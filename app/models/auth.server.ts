/** Authentication: checking credentials. (Lockout, sign-up, activation and reset: accounts issue.) */
import { verifyPassword } from "~/lib/password";

export async function checkCredentials(d1: D1Database, pepper: string, brandId: number, email: string, password: string) {
  const user = await d1
    .prepare("SELECT id, password_hash, language FROM users WHERE brand_id = ?1 AND email = ?2 AND deleted_at IS NULL")
    .bind(brandId, email.trim().toLowerCase())
    .first<{ id: string; password_hash: string; language: string }>();
  if (!user || !(await verifyPassword(password, user.password_hash, pepper))) return null;
  return { id: user.id, language: user.language };
}
