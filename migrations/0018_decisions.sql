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
ALTER TABLE `users` ADD `suspended_until` integer;