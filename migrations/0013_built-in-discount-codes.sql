-- The two codes every member may get (docs/product/data.md §3, docs/product/states.md §4 and docs/product/limits.md §9): their validity is per member
-- (counted from sign-up, app/lib/offers.ts); the rows exist so redemptions and payments can refer to them.
INSERT OR IGNORE INTO discount_codes (code, value_percentage, currency, status, once_per_user) VALUES ('TIMEBONUS25', '25', 'EUR', 'active', 1);
--> statement-breakpoint
INSERT OR IGNORE INTO discount_codes (code, value_percentage, currency, status, once_per_user) VALUES ('WELCOME25', '25', 'EUR', 'active', 1);
