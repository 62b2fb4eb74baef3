-- An account's push devices.
SELECT id, platform, token FROM push_devices WHERE user_id = $1
