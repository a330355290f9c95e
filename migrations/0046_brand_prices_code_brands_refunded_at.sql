CREATE TABLE `package_brand_prices` (
	`package_id` text NOT NULL,
	`brand_id` integer NOT NULL,
	`currency` text NOT NULL,
	`price_cents` integer NOT NULL,
	PRIMARY KEY(`package_id`, `brand_id`),
	FOREIGN KEY (`package_id`) REFERENCES `packages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `package_brand_prices_brand` ON `package_brand_prices` (`brand_id`);--> statement-breakpoint
ALTER TABLE `discount_codes` ADD `brand_ids` text;--> statement-breakpoint
ALTER TABLE `refunds` ADD `refunded_at` integer;