CREATE TABLE `wallet_outbox` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`key` text NOT NULL,
	`delta` integer NOT NULL,
	`reason` text NOT NULL,
	`ref_id` text,
	`clamp` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`applied_at` integer,
	`result` integer,
	`refused` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `wallet_outbox_user` ON `wallet_outbox` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `wallet_outbox_pending` ON `wallet_outbox` (`id`) WHERE applied_at IS NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `wallet_at` integer;--> statement-breakpoint
CREATE INDEX `users_wallet_pending` ON `users` (`id`) WHERE wallet_at IS NULL;