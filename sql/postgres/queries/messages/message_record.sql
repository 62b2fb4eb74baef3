-- One message as its parties read it.
SELECT * FROM message_records WHERE id = $1
