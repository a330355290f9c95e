CREATE TABLE `dsa_submissions` (
	`decision_id` text PRIMARY KEY NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`uuid` text,
	`response` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dsa_submissions_status` ON `dsa_submissions` (`status`,`updated_at`);--> statement-breakpoint
CREATE TABLE `escalations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`case_id` text NOT NULL,
	`operator_id` text NOT NULL,
	`recipient_type` text NOT NULL,
	`recipient` text NOT NULL,
	`reference` text DEFAULT '' NOT NULL,
	`reported_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `escalations_case` ON `escalations` (`case_id`);--> statement-breakpoint
CREATE TABLE `evidence` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`decision_id` text NOT NULL,
	`member_id` text NOT NULL,
	`photo_id` text NOT NULL,
	`category` text NOT NULL,
	`object_key` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`retain_until` integer NOT NULL,
	`deleted_at` integer
);
--> statement-breakpoint
CREATE INDEX `evidence_case` ON `evidence` (`case_id`);--> statement-breakpoint
CREATE INDEX `evidence_retain` ON `evidence` (`deleted_at`,`retain_until`);--> statement-breakpoint
DROP INDEX `appeals_decision`;--> statement-breakpoint
ALTER TABLE `appeals` ADD `notice_id` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `appeals_decision_notice` ON `appeals` (`decision_id`,`notice_id`);--> statement-breakpoint
ALTER TABLE `moderation_cases` ADD `assigned_to` text;--> statement-breakpoint
CREATE INDEX `moderation_cases_brand_queue` ON `moderation_cases` (`brand_id`,`status`,`severity`,`opened_at`);--> statement-breakpoint
CREATE INDEX `moderation_cases_assigned` ON `moderation_cases` (`assigned_to`,`status`,`severity`,`opened_at`);