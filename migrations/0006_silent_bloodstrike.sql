ALTER TABLE `payments` ADD `charged_back_cents` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `chargeback_unrecovered_credits` integer;