-- Brand currencies (issue 8): every package keeps the price it had, now as its price in package_prices.
-- Local prices in other currencies are set per package by the business (db/seed for the demo).
INSERT INTO `package_prices` (`package_id`, `currency`, `price_cents`)
  SELECT `id`, `currency`, `price_cents` FROM `packages` WHERE true
  ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Mollie takes paysafecard in EUR only (its multicurrency table lists cards and PayPal for SEK, NOK,
-- DKK, PLN and CHF; Swish SEK only, Blik PLN only, Twint CHF only, Przelewy24 PLN and EUR).
UPDATE `payment_methods` SET `currencies` = 'EUR' WHERE `provider_method` = 'paysafecard';
