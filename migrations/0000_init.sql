CREATE TABLE `blocks` (
	`blocker_id` text NOT NULL,
	`blocked_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`blocker_id`, `blocked_id`),
	FOREIGN KEY (`blocker_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`blocked_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `blocks_blocked` ON `blocks` (`blocked_id`);--> statement-breakpoint
CREATE TABLE `brands` (
	`id` integer PRIMARY KEY NOT NULL,
	`hostname` text NOT NULL,
	`is_default` integer DEFAULT false NOT NULL,
	`name` text NOT NULL,
	`domain` text NOT NULL,
	`domain_language` text NOT NULL,
	`cdn_prefix` text DEFAULT '' NOT NULL,
	`niche` integer NOT NULL,
	`index_title` text NOT NULL,
	`description` text NOT NULL,
	`signups` text DEFAULT 'all' NOT NULL,
	`logged_out_search` text DEFAULT 'other' NOT NULL,
	`logged_out_search_trafficsource` text DEFAULT 'other' NOT NULL,
	`support_phone` text NOT NULL,
	`support_email` text NOT NULL,
	`push_public_key` text DEFAULT '' NOT NULL,
	`enable_site_entry_popup` integer DEFAULT true NOT NULL,
	`site_entry_countries` text NOT NULL,
	`fictional_icon` text DEFAULT '' NOT NULL,
	`fictional_warning` text DEFAULT '' NOT NULL,
	`fictional_singular` text DEFAULT '' NOT NULL,
	`fictional_plural` text DEFAULT '' NOT NULL,
	`countries` text NOT NULL,
	`minimum_message_costs` text NOT NULL,
	`visible_profile_fields` text NOT NULL,
	`visible_profile_notes` integer DEFAULT false NOT NULL,
	`message_credits` integer NOT NULL,
	`signup_credits` integer NOT NULL,
	`photo_credits` integer NOT NULL,
	`gift_credits` integer NOT NULL,
	`message_length` integer NOT NULL,
	`search_fields` text NOT NULL,
	`refund_days` integer NOT NULL,
	`member_resell` integer DEFAULT false NOT NULL,
	`company_id` integer NOT NULL,
	`mail_name` text NOT NULL,
	`min_age` integer DEFAULT 18 NOT NULL,
	`chat_history_days` integer DEFAULT 90 NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `brands_hostname_unique` ON `brands` (`hostname`);--> statement-breakpoint
CREATE TABLE `cities` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`country` text NOT NULL,
	`region_code` text NOT NULL,
	`lat` real NOT NULL,
	`lon` real NOT NULL,
	`population` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `cities_lat_lon` ON `cities` (`lat`,`lon`);--> statement-breakpoint
CREATE INDEX `cities_country_region` ON `cities` (`country`,`region_code`);--> statement-breakpoint
CREATE TABLE `companies` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`address` text NOT NULL,
	`kvk` text NOT NULL,
	`city` text NOT NULL,
	`country` text NOT NULL,
	`tradenames` text NOT NULL,
	`vat_numbers` text NOT NULL,
	`support_phone` text NOT NULL,
	`delete_discount` integer DEFAULT 0 NOT NULL,
	`added` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `conversation_members` (
	`conversation_id` text NOT NULL,
	`user_id` text NOT NULL,
	`unread` integer DEFAULT 0 NOT NULL,
	`hidden_at` integer,
	`last_activity_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`conversation_id`, `user_id`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversation_members_user` ON `conversation_members` (`user_id`,`last_activity_at`);--> statement-breakpoint
CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`member_a` text NOT NULL,
	`member_b` text NOT NULL,
	`started_by` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`last_message_at` integer,
	`last_message_preview` text,
	FOREIGN KEY (`member_a`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_b`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conversations_pair` ON `conversations` (`member_a`,`member_b`);--> statement-breakpoint
CREATE INDEX `conversations_started_by` ON `conversations` (`started_by`);--> statement-breakpoint
CREATE TABLE `counters` (
	`key` text PRIMARY KEY NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `credit_ledger` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`delta` integer NOT NULL,
	`reason` text NOT NULL,
	`ref_id` text,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `credit_ledger_user` ON `credit_ledger` (`user_id`,`id`);--> statement-breakpoint
CREATE TABLE `discount_codes` (
	`id` integer PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`value_percentage` text NOT NULL,
	`minimum_order_value` integer,
	`country` text,
	`user_id` text,
	`expires` integer,
	`currency` text DEFAULT 'EUR' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`once_per_user` integer DEFAULT true NOT NULL,
	`paymentmethods` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `discount_codes_code_unique` ON `discount_codes` (`code`);--> statement-breakpoint
CREATE TABLE `discount_redemptions` (
	`code_id` integer NOT NULL,
	`user_id` text NOT NULL,
	`payment_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`code_id`, `user_id`),
	FOREIGN KEY (`code_id`) REFERENCES `discount_codes`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `interests` (
	`id` text PRIMARY KEY NOT NULL,
	`sort` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `likes` (
	`liker_id` text NOT NULL,
	`liked_id` text NOT NULL,
	`like_new` integer DEFAULT true NOT NULL,
	`source` text DEFAULT 'profile' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`liker_id`, `liked_id`),
	FOREIGN KEY (`liker_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`liked_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `likes_liked` ON `likes` (`liked_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `mail_outbox` (
	`id` integer PRIMARY KEY NOT NULL,
	`brand_id` integer,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY NOT NULL,
	`conversation_id` text NOT NULL,
	`sender_id` text NOT NULL,
	`client_id` text NOT NULL,
	`kind` text DEFAULT 'text' NOT NULL,
	`body` text NOT NULL,
	`gift_id` text,
	`credits_charged` integer DEFAULT 0 NOT NULL,
	`held` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`sender_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_client` ON `messages` (`conversation_id`,`sender_id`,`client_id`);--> statement-breakpoint
CREATE INDEX `messages_conversation` ON `messages` (`conversation_id`,`id`);--> statement-breakpoint
CREATE TABLE `notifications_disabled` (
	`user_id` text NOT NULL,
	`type` text NOT NULL,
	`reason` text DEFAULT 'user' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `type`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `packages` (
	`id` text PRIMARY KEY NOT NULL,
	`tier` text NOT NULL,
	`credits` integer NOT NULL,
	`price_cents` integer NOT NULL,
	`currency` text DEFAULT 'EUR' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `payments` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`brand_id` integer NOT NULL,
	`package_id` text NOT NULL,
	`credits` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text NOT NULL,
	`method` text NOT NULL,
	`transaction_fee_cents` integer DEFAULT 0 NOT NULL,
	`provider` text NOT NULL,
	`provider_ref` text,
	`status` text DEFAULT 'open' NOT NULL,
	`discount_code_id` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`package_id`) REFERENCES `packages`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payments_user` ON `payments` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_provider_ref` ON `payments` (`provider`,`provider_ref`);--> statement-breakpoint
CREATE TABLE `photos` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`is_private` integer DEFAULT false NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `photos_user` ON `photos` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `profile_interests` (
	`user_id` text NOT NULL,
	`interest_id` text NOT NULL,
	PRIMARY KEY(`user_id`, `interest_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`interest_id`) REFERENCES `interests`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `profile_interests_interest` ON `profile_interests` (`interest_id`);--> statement-breakpoint
CREATE TABLE `profiles` (
	`user_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`gender` text NOT NULL,
	`sexuality` text DEFAULT 'hetero' NOT NULL,
	`date_of_birth` text NOT NULL,
	`country` text NOT NULL,
	`region` text DEFAULT '' NOT NULL,
	`city` text DEFAULT '' NOT NULL,
	`lat` real,
	`lon` real,
	`about_me` text DEFAULT '' NOT NULL,
	`hair_colour` text,
	`eye_colour` text,
	`body_type` text,
	`relationship_status` text,
	`tattoos` text,
	`signup_reason` text,
	`main_photo_id` text,
	`fictional` integer DEFAULT false NOT NULL,
	`updated_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `profiles_search` ON `profiles` (`status`,`gender`,`country`,`date_of_birth`);--> statement-breakpoint
CREATE INDEX `profiles_search_region` ON `profiles` (`status`,`country`,`region`,`gender`,`date_of_birth`);--> statement-breakpoint
CREATE TABLE `push_subscriptions` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`endpoint` text NOT NULL,
	`p256dh` text NOT NULL,
	`auth` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `push_subscriptions_endpoint_unique` ON `push_subscriptions` (`endpoint`);--> statement-breakpoint
CREATE INDEX `push_subscriptions_user` ON `push_subscriptions` (`user_id`);--> statement-breakpoint
CREATE TABLE `regions` (
	`id` integer PRIMARY KEY NOT NULL,
	`country` text NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `regions_country_code` ON `regions` (`country`,`code`);--> statement-breakpoint
CREATE TABLE `reports` (
	`id` integer PRIMARY KEY NOT NULL,
	`reporter_id` text NOT NULL,
	`reported_id` text NOT NULL,
	`reason` text NOT NULL,
	`remarks` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`reporter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reported_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`expires_at` integer NOT NULL,
	`user_agent` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `swipe_passes` (
	`user_id` text NOT NULL,
	`target_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	PRIMARY KEY(`user_id`, `target_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`target_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `tokens` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`payload` text,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tokens_user_kind` ON `tokens` (`user_id`,`kind`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`brand_id` integer NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`paid_user` integer DEFAULT false NOT NULL,
	`credits` integer DEFAULT 0 NOT NULL,
	`language` text DEFAULT 'en' NOT NULL,
	`status` text DEFAULT 'not_confirmed' NOT NULL,
	`invisible` integer DEFAULT false NOT NULL,
	`failed_logins` integer DEFAULT 0 NOT NULL,
	`blocked_until` integer,
	`deleted_at` integer,
	`delete_reason` text,
	`delete_remarks` text,
	`network` text,
	`ref` text,
	`sub1` text,
	`sub2` text,
	`sub3` text,
	`signup_message` text,
	`signup_profile_id` text,
	`push_subscribed` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch()) NOT NULL,
	`last_seen_at` integer DEFAULT (unixepoch()) NOT NULL,
	FOREIGN KEY (`brand_id`) REFERENCES `brands`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_brand_email` ON `users` (`brand_id`,`email`);--> statement-breakpoint
CREATE INDEX `users_deleted_at` ON `users` (`deleted_at`);--> statement-breakpoint
CREATE INDEX `users_recent` ON `users` (`deleted_at`,`last_seen_at`);