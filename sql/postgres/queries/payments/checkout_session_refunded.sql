-- Records the refund of a checkout session's payment and the cents it returned.
UPDATE checkout_sessions SET refund_id = $2, refund_cents = $3 WHERE id = $1
