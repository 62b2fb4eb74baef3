-- Records that a checkout session can no longer be paid.
UPDATE checkout_sessions SET expired_at = now() WHERE id = $1 AND completed_at IS NULL AND expired_at IS NULL
