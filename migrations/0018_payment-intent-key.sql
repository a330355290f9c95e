ALTER TABLE `payments` ADD `intent_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `payments_intent_key` ON `payments` (`intent_key`);