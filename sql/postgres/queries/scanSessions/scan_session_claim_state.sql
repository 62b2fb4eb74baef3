-- Why a claim failed: no such session, already claimed, or over.
SELECT claimed_at IS NOT NULL AS claimed, (completed_at IS NOT NULL OR expires_at <= now()) AS over FROM scan_sessions WHERE id = $1
