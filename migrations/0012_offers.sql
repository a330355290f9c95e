CREATE TABLE `photo_unlocks` (
	`user_id` text NOT NULL,
	`photo_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `photo_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`photo_id`) REFERENCES `photos`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `brands` ADD `welcome_discount_s` integer DEFAULT 604800 NOT NULL;--> statement-breakpoint
ALTER TABLE `packages` ADD `one_time` integer DEFAULT false NOT NULL;