CREATE TABLE `team_events` (
	`id` integer PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`brand_id` integer NOT NULL,
	`conversation_id` text NOT NULL,
	`operator_id` text,
	`at` integer NOT NULL,
	`waited` integer,
	`paid` integer DEFAULT 0 NOT NULL,
	`paid_in_time` integer DEFAULT 0 NOT NULL,
	`paid_returned` integer DEFAULT 0 NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `team_events_brand_at` ON `team_events` (`brand_id`,`at`);--> statement-breakpoint
ALTER TABLE `operators` ADD `brand_ids` text;--> statement-breakpoint
CREATE INDEX `cities_name` ON `cities` (`name`);