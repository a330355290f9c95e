CREATE TABLE `appeals` (
	`id` text PRIMARY KEY NOT NULL,
	`decision_id` text NOT NULL,
	`member_id` text NOT NULL,
	`explanation` text NOT NULL,
	`language` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`operator_id` text,
	`reasons` text,
	`decided_at` integer,
	`outcome_ref` text,
	FOREIGN KEY (`decision_id`) REFERENCES `decisions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `appeals_decision` ON `appeals` (`decision_id`);--> statement-breakpoint
CREATE INDEX `appeals_queue` ON `appeals` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `held_photos` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`decision_id` text NOT NULL,
	`is_private` integer DEFAULT false NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`created_at` integer NOT NULL,
	`was_main` integer DEFAULT false NOT NULL,
	`held_until` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `held_photos_until` ON `held_photos` (`held_until`);--> statement-breakpoint
CREATE INDEX `held_photos_user` ON `held_photos` (`user_id`);--> statement-breakpoint
ALTER TABLE `decisions` ADD `reversed_at` integer;