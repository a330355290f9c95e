CREATE TABLE `reporter_measures` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`reporter_id` text,
	`reporter_email` text,
	`reason` text NOT NULL,
	`days` integer,
	`starts_at` integer NOT NULL,
	`ends_at` integer,
	`operator_id` text NOT NULL,
	`lifted_at` integer,
	`lifted_by` text,
	`lift_reason` text
);
--> statement-breakpoint
CREATE INDEX `reporter_measures_reporter` ON `reporter_measures` (`reporter_id`,`starts_at`);--> statement-breakpoint
CREATE INDEX `reporter_measures_email` ON `reporter_measures` (`reporter_email`,`starts_at`);--> statement-breakpoint
CREATE TABLE `set_aside_notices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`measure_id` text NOT NULL,
	`brand_id` integer NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`member_id` text NOT NULL,
	`reporter_id` text,
	`reporter_email` text,
	`category` text NOT NULL,
	`explanation` text DEFAULT '' NOT NULL,
	`language` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `set_aside_notices_reporter` ON `set_aside_notices` (`reporter_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `set_aside_notices_email` ON `set_aside_notices` (`reporter_email`,`created_at`);--> statement-breakpoint
CREATE INDEX `notices_reporter` ON `notices` (`reporter_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notices_reporter_email` ON `notices` (`reporter_email`,`created_at`);