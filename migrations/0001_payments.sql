CREATE TABLE `payment_customers` (
	`user_id` text NOT NULL,
	`provider` text NOT NULL,
	`customer_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `provider`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `payment_methods` (
	`country` text NOT NULL,
	`method` text NOT NULL,
	`provider_method` text NOT NULL,
	`sort` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`currencies` text,
	PRIMARY KEY(`country`, `method`)
);
--> statement-breakpoint
CREATE TABLE `refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`payment_id` text NOT NULL,
	`user_id` text NOT NULL,
	`credits` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`provider_ref` text,
	`status` text DEFAULT 'queued' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `refunds_payment` ON `refunds` (`payment_id`);--> statement-breakpoint
CREATE TABLE `sandbox_objects` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`parent_id` text,
	`idempotency_key` text,
	`data` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sandbox_objects_parent` ON `sandbox_objects` (`kind`,`parent_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `sandbox_objects_idempotency` ON `sandbox_objects` (`kind`,`idempotency_key`);--> statement-breakpoint
ALTER TABLE `payments` ADD `original_amount_cents` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `sequence_type` text DEFAULT 'oneoff' NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `customer_id` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `mandate_id` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `payment_country` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `checkout_url` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `failure_reason` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `paid_at` integer;