ALTER TABLE `operators` ADD `brand_ids` text;--> statement-breakpoint
CREATE INDEX `cities_name` ON `cities` (`name`);