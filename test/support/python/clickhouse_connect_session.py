"""A data team's session with clickhouse-connect (PyPI), unmodified, against Holo's /clickhouse.

Arguments: base URL of the API, an API key, a card id. Prints one JSON object with what each
step returned or the error it raised, for test/clickhouse-access.test.ts to compare.
"""
import json
import sys
from urllib.parse import urlparse

import clickhouse_connect

base, key, card = sys.argv[1], sys.argv[2], int(sys.argv[3])
url = urlparse(base)
client = clickhouse_connect.get_client(
    host=url.hostname, port=url.port, username="holo", password=key, proxy_path="/clickhouse", database="holo"
)
out = {"server_version": client.server_version}
out["count"] = client.query("SELECT count() FROM holo.price_points").result_rows[0][0]
out["by_source"] = client.query(
    "SELECT source, count() AS n, toString(sum(amount)) AS total FROM holo.price_points"
    " WHERE card_id = {card:UInt32} AND NOT is_outlier GROUP BY source ORDER BY source",
    parameters={"card": card},
).result_rows
out["daily_median"] = client.query(
    "SELECT source, toString(day), toString(median_amount) FROM holo.price_daily"
    " WHERE card_id = {card:UInt32} AND region = 'us' ORDER BY day DESC, source LIMIT 3",
    parameters={"card": card},
).result_rows
out["describe"] = [[r[0], r[4]] for r in client.query("DESCRIBE TABLE holo.price_latest").result_rows]
for name, sql in [
    ("insert", "INSERT INTO holo.fx_rates (day, currency, rate, source) VALUES ('2026-01-01', 'XXX', 1, 'test')"),
    ("drop", "DROP TABLE holo.price_points"),
    ("other_table", "SELECT * FROM holo.schema_migrations"),
]:
    try:
        client.command(sql)
        out[name] = "ran"
    except Exception as err:  # the driver's own error type, reported as text
        out[name] = str(err)
print(json.dumps(out, default=str))
