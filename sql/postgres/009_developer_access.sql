-- Developer access: the moment an account accepted the API terms in the developer portal
-- (POST /enable). The portal creates keys only for enabled accounts; creating a key through the
-- API records the acceptance too.
ALTER TABLE users ADD COLUMN developer_enabled_at timestamptz;
