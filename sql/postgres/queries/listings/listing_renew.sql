-- Extends an active or expired listing by $2 days from its expiry (or from now, once past it),
-- unless it was renewed within the last $3 seconds: then nothing (renewals are idempotent in that
-- window). Two renewals at once: the second waits for the first, then finds it renewed just now.
UPDATE listings
SET expires_at = greatest(expires_at, now()) + make_interval(days => $2), renewal_count = renewal_count + 1,
    renewed_at = now(), status = 'active', updated_at = now()
WHERE id = $1 AND status IN ('active', 'expired')
  AND (renewed_at IS NULL OR renewed_at <= now() - make_interval(secs => $3))
RETURNING id
