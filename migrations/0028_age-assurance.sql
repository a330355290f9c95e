CREATE TABLE `age_check_counts` (
	`brand_id` integer NOT NULL,
	`country` text NOT NULL,
	`day` text NOT NULL,
	`started` integer DEFAULT 0 NOT NULL,
	`passed` integer DEFAULT 0 NOT NULL,
	`refused` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`brand_id`, `country`, `day`)
);
--> statement-breakpoint
CREATE TABLE `age_proofs` (
	`subject` text PRIMARY KEY NOT NULL,
	`method` text NOT NULL,
	`proved_at` integer NOT NULL,
	`valid_until` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `age_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`nonce` text NOT NULL,
	`subject` text NOT NULL,
	`brand_id` integer NOT NULL,
	`country` text NOT NULL,
	`next` text DEFAULT '/members' NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`reason` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `age_requests_subject` ON `age_requests` (`subject`,`created_at`);--> statement-breakpoint
CREATE INDEX `age_requests_expiry` ON `age_requests` (`expires_at`);--> statement-breakpoint
CREATE TABLE `age_trusted_roots` (
	`id` text PRIMARY KEY NOT NULL,
	`der` text NOT NULL,
	`fetched_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `brands` ADD `age_check` text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE `brands` ADD `age_check_countries` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `brands` ADD `age_check_days` integer DEFAULT 365 NOT NULL;