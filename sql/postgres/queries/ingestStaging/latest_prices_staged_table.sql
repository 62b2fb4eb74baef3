-- A batch's newest price per series, copied in (COPY) before it moves variant_prices_latest forward;
-- gone at the end of the transaction.
CREATE TEMPORARY TABLE staged_latest_prices (
  card_id         integer NOT NULL,
  variant_id      integer NOT NULL,
  region          text NOT NULL,
  source          text NOT NULL,
  price_type      text NOT NULL,
  grading_company text NOT NULL,
  grade           text NOT NULL,
  currency        text NOT NULL,
  amount          numeric NOT NULL,
  as_of           date NOT NULL
) ON COMMIT DROP
