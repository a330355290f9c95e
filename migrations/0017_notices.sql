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
CREATE UNIQUE INDEX `notices_case_reporter` ON `notices` (`case_id`,`reporter_id`);