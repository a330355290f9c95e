ALTER TABLE `messages` ADD `seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `messages_seq` ON `messages` (`conversation_id`,`seq`);