ALTER TABLE `decisions` ADD `public_facts` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `decisions` ADD `legal_ground` text DEFAULT '' NOT NULL;