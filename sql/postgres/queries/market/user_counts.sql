-- Accounts and sellers that are not deleted.
SELECT count(*)::int AS users, (count(*) FILTER (WHERE is_seller))::int AS sellers FROM users WHERE deleted_at IS NULL
