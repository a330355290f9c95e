CREATE TABLE `cams_promo_clicks` (
	`brand_id` integer NOT NULL,
	`day` text NOT NULL,
	`placement` text NOT NULL,
	`clicks` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`brand_id`, `day`, `placement`),
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `brands` ADD `cams_promo_enabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `brands` ADD `cams_promo` text;