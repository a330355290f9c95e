/** Members: accounts' settings and profiles. */
export async function saveLanguage(d1: D1Database, userId: string, lng: string) {
  await d1.prepare("UPDATE users SET language = ?1 WHERE id = ?2").bind(lng, userId).run();
}
