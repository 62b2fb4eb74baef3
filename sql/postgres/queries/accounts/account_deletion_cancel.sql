-- Withdraws a deletion request.
UPDATE users SET delete_requested_at = NULL WHERE id = $1
