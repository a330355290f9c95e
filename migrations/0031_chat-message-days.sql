CREATE TABLE `chat_message_days` (
	`brand_id` integer NOT NULL,
	`day` integer NOT NULL,
	`messages` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`brand_id`, `day`)
);
