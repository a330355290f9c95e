CREATE TABLE `campaigns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`brand_id` integer NOT NULL,
	`type` text NOT NULL,
	`ref` text,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`path` text DEFAULT '/' NOT NULL,
	`language` text,
	`country` text,
	`plan` text DEFAULT 'all' NOT NULL,
	`active_days` integer,
	`status` text DEFAULT 'draft' NOT NULL,
	`send_at` integer,
	`cursor` text,
	`sent` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `campaigns_due` ON `campaigns` (`status`,`send_at`);--> statement-breakpoint
CREATE INDEX `campaigns_brand` ON `campaigns` (`brand_id`,`id`);--> statement-breakpoint
CREATE INDEX `users_brand_id` ON `users` (`brand_id`,`id`);