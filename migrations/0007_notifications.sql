CREATE TABLE `app_keys` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `notification_log` (
	`user_id` text NOT NULL,
	`key` text NOT NULL,
	`sent_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `notification_log_sent` ON `notification_log` (`sent_at`);--> statement-breakpoint
ALTER TABLE `mail_outbox` ADD `headers` text;