// One price observation as every pipeline stage passes it on, and the identity of its series.
// Its own module so that no stage imports a later one for the type.

export type PricePointRow = {
  card_id: number;
  variant_id: number;
  game: string;
  region: 'eu' | 'us' | 'jp';
  source: string;
  price_type: string; // '' for graded rows
  grading_company: string; // 'raw' when ungraded
  grade: string; // '' when ungraded
  currency: string;
  amount: string; // decimal text, kept exact
  as_of: string; // YYYY-MM-DD
  observation_id?: string;
  is_outlier: boolean;
};

/**
 * A series' identity as text: variant|region|source|price_type|grading_company|grade. The outlier
 * baseline (recent_series_stats.sql) returns the same concatenation.
 */
export const seriesKey = (r: Pick<PricePointRow, 'variant_id' | 'region' | 'source' | 'price_type' | 'grading_company' | 'grade'>) =>
  `${r.variant_id}|${r.region}|${r.source}|${r.price_type}|${r.grading_company}|${r.grade}`;
