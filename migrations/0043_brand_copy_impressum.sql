ALTER TABLE `brands` ADD `runs_team_profiles` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `register_court` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `managing_directors` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `youth_officer_name` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `youth_officer_email` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `youth_officer_phone` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `dispute_resolution` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `dispute_board` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Not generated (decision 213): "New members" and "Reminders" are promotion and need consent, which no existing member gave; they start off for everyone.
INSERT OR IGNORE INTO `notifications_disabled` (`user_id`, `type`, `reason`) SELECT `id`, 'new_members', 'user' FROM `users`;--> statement-breakpoint
INSERT OR IGNORE INTO `notifications_disabled` (`user_id`, `type`, `reason`) SELECT `id`, 'reminders', 'user' FROM `users`;
