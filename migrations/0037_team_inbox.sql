CREATE TABLE `team_conversations` (
	`conversation_id` text PRIMARY KEY NOT NULL,
	`brand_id` integer NOT NULL,
	`profile_id` text NOT NULL,
	`member_id` text NOT NULL,
	`language` text DEFAULT '' NOT NULL,
	`waiting_since` integer,
	`waiting_seq` integer,
	`credits` integer DEFAULT 0 NOT NULL,
	`claimed_by` text,
	`claimed_at` integer,
	`first_reply_at` integer,
	`refund_from` integer,
	`credits_returned` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`profile_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `team_conversations_waiting` ON `team_conversations` (`waiting_since`) WHERE waiting_since IS NOT NULL;--> statement-breakpoint
CREATE INDEX `team_conversations_refund` ON `team_conversations` (`refund_from`) WHERE refund_from IS NOT NULL;--> statement-breakpoint
CREATE INDEX `team_conversations_member` ON `team_conversations` (`member_id`);--> statement-breakpoint
CREATE INDEX `team_conversations_profile` ON `team_conversations` (`profile_id`);--> statement-breakpoint
CREATE TABLE `team_member_notes` (
	`member_id` text PRIMARY KEY NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`updated_by` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`member_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `team_personas` (
	`user_id` text PRIMARY KEY NOT NULL,
	`notes` text DEFAULT '' NOT NULL,
	`languages` text DEFAULT '' NOT NULL,
	`retired_at` integer,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `brands` ADD `team_reply_hours` integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE `brands` ADD `team_phrases` text DEFAULT '' NOT NULL;