-- Giropay (no payments since 30 June 2024) and Sofort (ended 30 September 2024) are gone from
-- Mollie's methods and its clients (issue 28): they leave the data, not only switched off.
DELETE FROM `payment_methods` WHERE `method` IN ('giropay', 'sofort') OR `provider_method` IN ('giropay', 'sofort');
