-- Records a checkout session's payment.
UPDATE checkout_sessions SET completed_at = now(), payment_intent = $2 WHERE id = $1
