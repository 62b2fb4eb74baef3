// The status page's incident history, from PostgreSQL.
import type { z } from 'zod';
import type { Db } from '../../sql/stores/db.js';
import { incidents } from '../../sql/status.js';
import type { IncidentList, IncidentsQuery } from '../../schemas/status.js';

export async function incidentHistory(db: Db, query: z.output<typeof IncidentsQuery>): Promise<z.input<typeof IncidentList>> {
  const rows = await incidents(db, query.status, query.limit, query.offset);
  return { items: rows.map(({ total: _total, ...incident }) => incident), total: rows[0]?.total ?? 0 };
}
