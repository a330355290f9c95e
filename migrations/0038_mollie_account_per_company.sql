DROP INDEX `sandbox_objects_idempotency`;--> statement-breakpoint
ALTER TABLE `sandbox_objects` ADD `account` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `sandbox_objects_idempotency` ON `sandbox_objects` (`account`,`kind`,`idempotency_key`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_payment_customers` (
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`account` text DEFAULT '' NOT NULL,
	`customer_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `provider`, `account`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_payment_customers`("user_id", "provider", "account", "customer_id", "created_at") SELECT "user_id", "provider", "account", "customer_id", "created_at" FROM `payment_customers`;--> statement-breakpoint
DROP TABLE `payment_customers`;--> statement-breakpoint
ALTER TABLE `__new_payment_customers` RENAME TO `payment_customers`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
ALTER TABLE `brands` ADD `mollie_profile_id` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `mollie_account` text;--> statement-breakpoint
CREATE UNIQUE INDEX `companies_mollie_account_unique` ON `companies` (`mollie_account`);--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_account` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_alert_dealt_at` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_alert_dealt_by` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_alert_note` text;