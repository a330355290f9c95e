CREATE TABLE `signup_requests` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`brand_id` integer NOT NULL,
	`email` text NOT NULL,
	`payload` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `signup_requests_email` ON `signup_requests` (`brand_id`,`email`);--> statement-breakpoint
CREATE INDEX `signup_requests_expires` ON `signup_requests` (`expires_at`);