-- Sets an account's avatar (an uploaded picture's name).
UPDATE users SET avatar = $2 WHERE id = $1
