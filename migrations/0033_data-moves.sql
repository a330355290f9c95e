CREATE TABLE `data_moves` (
	`name` text PRIMARY KEY NOT NULL,
	`done_at` integer NOT NULL
);
