CREATE TABLE `payment_holds` (
	`user_id` text PRIMARY KEY NOT NULL,
	`payment_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_alert` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_alert_at` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_checked_at` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `provider_country` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `settlement_cents` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `settlement_currency` text;--> statement-breakpoint
CREATE INDEX `payments_provider_alert` ON `payments` (`provider_alert_at`);