CREATE TABLE `settlement_lines` (
	`settlement_id` text NOT NULL,
	`kind` text NOT NULL,
	`provider_ref` text NOT NULL,
	`payment_id` text,
	`settled_cents` integer NOT NULL,
	`expected_cents` integer,
	`state` text NOT NULL,
	PRIMARY KEY(`settlement_id`, `provider_ref`),
	FOREIGN KEY (`settlement_id`) REFERENCES `settlements`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `settlement_lines_payment` ON `settlement_lines` (`payment_id`);--> statement-breakpoint
CREATE TABLE `settlements` (
	`id` text PRIMARY KEY NOT NULL,
	`reference` text,
	`status` text NOT NULL,
	`month` text NOT NULL,
	`currency` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`fees_cents` integer NOT NULL,
	`fees_vat_cents` integer NOT NULL,
	`settled_at` integer,
	`created_at` integer NOT NULL,
	`imported_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `settlements_month` ON `settlements` (`month`);--> statement-breakpoint
ALTER TABLE `brands` ADD `sepa_iban_form` integer DEFAULT false NOT NULL;