CREATE TABLE `case_flags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`case_id` text NOT NULL,
	`rule` text NOT NULL,
	`detail` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`case_id`) REFERENCES `moderation_cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `case_flags_case_rule` ON `case_flags` (`case_id`,`rule`);--> statement-breakpoint
CREATE INDEX `case_flags_at` ON `case_flags` (`created_at`);--> statement-breakpoint
CREATE INDEX `decisions_at` ON `decisions` (`created_at`);--> statement-breakpoint
CREATE INDEX `notices_at` ON `notices` (`created_at`);