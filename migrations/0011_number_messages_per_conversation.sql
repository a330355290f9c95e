-- Custom SQL migration file, put your code below! --
-- Issue 12 item 11, decision 089: messages already stored get their number within their conversation,
-- in the order they were stored; new ones get MAX(seq) + 1 when inserted.
UPDATE messages SET seq = (
  SELECT COUNT(*) FROM messages m2 WHERE m2.conversation_id = messages.conversation_id AND m2.id <= messages.id
);
