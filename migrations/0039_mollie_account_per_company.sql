DROP INDEX `sandbox_objects_idempotency`;--> statement-breakpoint
ALTER TABLE `sandbox_objects` ADD `account` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `sandbox_objects_idempotency` ON `sandbox_objects` (`account`,`kind`,`idempotency_key`);--> statement-breakpoint
ALTER TABLE `brands` ADD `mollie_profile_id` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `mollie_account` text;--> statement-breakpoint
CREATE UNIQUE INDEX `companies_mollie_account_unique` ON `companies` (`mollie_account`);--> statement-breakpoint
ALTER TABLE `payment_customers` ADD `account` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_account` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_alert_dealt_at` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_alert_dealt_by` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_alert_note` text;