-- The batch's newest prices per series, as TabSeparated from ClickHouse (ingest_latest_prices.sql).
COPY staged_latest_prices (card_id, variant_id, region, source, price_type, grading_company, grade, currency, amount, as_of) FROM STDIN
