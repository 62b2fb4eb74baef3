-- One transaction as its parties read it.
SELECT * FROM transaction_records WHERE id = $1
