CREATE INDEX `messages_created` ON `messages` (`created_at`);--> statement-breakpoint
CREATE INDEX `payments_paid` ON `payments` (`paid_at`,`brand_id`,`currency`,`amount_cents`,`user_id`);--> statement-breakpoint
CREATE INDEX `payments_status_updated` ON `payments` (`status`,`updated_at`);--> statement-breakpoint
CREATE INDEX `profiles_name` ON `profiles` (`name`);--> statement-breakpoint
CREATE INDEX `refunds_created` ON `refunds` (`created_at`);--> statement-breakpoint
CREATE INDEX `users_created` ON `users` (`created_at`,`brand_id`,`status`);--> statement-breakpoint
CREATE INDEX `users_email` ON `users` (`email`);