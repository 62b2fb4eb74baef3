-- The seller takes an open listing off the market.
UPDATE listings SET status = 'withdrawn', updated_at = now() WHERE id = $1 AND status = 'active'
