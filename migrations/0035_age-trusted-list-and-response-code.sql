ALTER TABLE `age_requests` ADD `response_code` text;--> statement-breakpoint
ALTER TABLE `age_trusted_roots` ADD `next_update` integer;