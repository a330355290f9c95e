ALTER TABLE `brands` ADD `photo_review` text DEFAULT 'before' NOT NULL;--> statement-breakpoint
ALTER TABLE `photos` ADD `review` text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
CREATE INDEX `photos_review` ON `photos` (`review`,`created_at`,`id`);