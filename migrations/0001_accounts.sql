ALTER TABLE `users` ADD `signup_message` text;--> statement-breakpoint
ALTER TABLE `users` ADD `signup_profile_id` text;