// Task queue and workflow ids, built from business keys in one place.
export const TASK_QUEUE = 'holo-ingest';

export const workflowIds = {
  fxRates: (day: string) => `fx-rates/${day}`,
  catalogueSync: (day: string) => `catalogue-sync/${day}`,
  ingestSource: (source: string, game: string, asOf: string) => `ingest/${source}/${game}/${asOf}`,
  scrapeAll: (asOf: string) => `scrape-all/${asOf}`,
  webhookDelivery: (deliveryId: number) => `webhook-delivery/${deliveryId}`,
  dailyDigest: (day: string) => `daily-digest/${day}`,
  emailOutbox: (stamp: string) => `email-outbox/${stamp}`,
};
