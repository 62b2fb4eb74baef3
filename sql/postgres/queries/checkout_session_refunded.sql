-- Records the refund of a checkout session's payment.
UPDATE checkout_sessions SET refund_id = $2 WHERE id = $1
