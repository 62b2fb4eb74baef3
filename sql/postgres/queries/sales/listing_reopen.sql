-- A sale that was cancelled gives the listing back to the market, unless it has expired meanwhile.
UPDATE listings SET status = 'active', updated_at = now() WHERE id = $1 AND status = 'sold' AND expires_at > now()
