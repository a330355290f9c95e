ALTER TABLE `discount_codes` ADD `max_uses` integer;--> statement-breakpoint
ALTER TABLE `discount_codes` ADD `created_at` integer;--> statement-breakpoint
CREATE INDEX `payments_created` ON `payments` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `payments_brand_created` ON `payments` (`brand_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `payments_brand_paid` ON `payments` (`brand_id`,`paid_at`);--> statement-breakpoint
CREATE INDEX `payments_discount_code` ON `payments` (`discount_code_id`,`status`);