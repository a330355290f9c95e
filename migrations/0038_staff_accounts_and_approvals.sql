CREATE TABLE `console_approvals` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`params` text NOT NULL,
	`impact` text NOT NULL,
	`requested_by` text NOT NULL,
	`requested_at` integer DEFAULT (unixepoch()) NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`decided_by` text,
	`decided_at` integer
);
--> statement-breakpoint
CREATE INDEX `console_approvals_status` ON `console_approvals` (`status`,`requested_at`);--> statement-breakpoint
ALTER TABLE `operators` ADD `must_change_password` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `operators` ADD `must_enrol_totp` integer DEFAULT false NOT NULL;