-- Stock imported from another marketplace's export keeps that marketplace's article reference, so
-- importing the same export again updates those listings instead of listing the stock twice.
ALTER TABLE listings ADD COLUMN stock_ref text CHECK (length(stock_ref) <= 120);
CREATE UNIQUE INDEX listings_stock_ref ON listings (seller_id, stock_ref) WHERE stock_ref IS NOT NULL AND status = 'active';
