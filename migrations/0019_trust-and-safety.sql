CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer DEFAULT (unixepoch()) NOT NULL,
	`operator_id` text NOT NULL,
	`role` text NOT NULL,
	`action` text NOT NULL,
	`target_type` text DEFAULT '' NOT NULL,
	`target_id` text DEFAULT '' NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`before` text,
	`after` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at` ON `audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `audit_log_operator` ON `audit_log` (`operator_id`,`at`);--> statement-breakpoint
CREATE INDEX `audit_log_target` ON `audit_log` (`target_type`,`target_id`,`at`);--> statement-breakpoint
CREATE TABLE `decisions` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`member_id` text NOT NULL,
	`operator_id` text NOT NULL,
	`action` text NOT NULL,
	`rule` text DEFAULT '' NOT NULL,
	`facts` text NOT NULL,
	`days` integer,
	`ends_at` integer,
	`automated_detection` integer DEFAULT false NOT NULL,
	`removed` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`case_id`) REFERENCES `moderation_cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `decisions_member` ON `decisions` (`member_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `decisions_case` ON `decisions` (`case_id`);--> statement-breakpoint
CREATE TABLE `moderation_cases` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` integer NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`member_id` text NOT NULL,
	`severity` integer NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`flagged_by` text,
	`opened_at` integer DEFAULT (unixepoch()) NOT NULL,
	`closed_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `moderation_cases_open_target` ON `moderation_cases` (`target_type`,`target_id`) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX `moderation_cases_queue` ON `moderation_cases` (`status`,`severity`,`opened_at`);--> statement-breakpoint
CREATE INDEX `moderation_cases_member` ON `moderation_cases` (`member_id`,`opened_at`);--> statement-breakpoint
CREATE TABLE `notices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`case_id` text NOT NULL,
	`reporter_id` text,
	`reporter_email` text,
	`category` text NOT NULL,
	`explanation` text DEFAULT '' NOT NULL,
	`good_faith` integer DEFAULT false NOT NULL,
	`language` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`case_id`) REFERENCES `moderation_cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `notices_case` ON `notices` (`case_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `notices_case_reporter` ON `notices` (`case_id`,`reporter_id`);--> statement-breakpoint
CREATE TABLE `operator_sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`operator_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`expires_at` integer NOT NULL,
	`user_agent` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`operator_id`) REFERENCES `operators`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `operator_sessions_operator` ON `operator_sessions` (`operator_id`);--> statement-breakpoint
CREATE TABLE `operators` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`password_hash` text NOT NULL,
	`totp_secret` text,
	`totp_last_step` integer DEFAULT 0 NOT NULL,
	`disabled` integer DEFAULT false NOT NULL,
	`failed_logins` integer DEFAULT 0 NOT NULL,
	`blocked_until` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `operators_email` ON `operators` (`email`);--> statement-breakpoint
ALTER TABLE `users` ADD `suspended_until` integer;