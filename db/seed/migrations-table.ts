/** The table wrangler records applied D1 migrations in, as wrangler creates it (no Node imports: workerd reads it too). */
export const MIGRATIONS_TABLE_DDL = `CREATE TABLE IF NOT EXISTS "d1_migrations"(
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
)`;
