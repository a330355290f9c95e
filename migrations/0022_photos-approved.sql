-- Photo review (decision 175): photos uploaded before review existed were already public; they stay
-- shown as approved. New rows take the column's default, 'pending'.
UPDATE `photos` SET `review` = 'approved';
