CREATE TABLE `package_prices` (
	`package_id` text NOT NULL,
	`currency` text NOT NULL,
	`price_cents` integer NOT NULL,
	PRIMARY KEY(`package_id`, `currency`),
	FOREIGN KEY (`package_id`) REFERENCES `packages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `brands` ADD `currency` text DEFAULT 'EUR' NOT NULL;