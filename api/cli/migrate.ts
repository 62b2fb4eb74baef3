// npm run migrate: applies pending PostgreSQL and ClickHouse migrations and exits.
import { withMigratedStores } from './withStores.js';

await withMigratedStores(async ({ log }) => log.info('migrations: up to date'));
