-- A live account.
SELECT * FROM live_accounts WHERE id = $1
