// What every PostgreSQL workload receives: the bench context, the server, fresh schemas, the
// column's sizes and the pool size both sides use.
import type { BenchContext } from '../harness/context.js';
import type { PgPlace } from '../library/postgres.js';
import type { PgSchemas } from './server.js';
import type { PgSizes } from './sizes.js';

/** Connections per pool, the same on the library and the raw side (the store's default is 10). */
export const PG_POOL_SIZE = 10;

export interface PgBenchContext extends BenchContext {
  readonly pg: {
    readonly url: string;
    readonly schemas: PgSchemas;
    readonly sizes: PgSizes;
  };
}

/** A fresh schema on the run's server for one side of a workload. */
export function freshPlace(ctx: PgBenchContext): PgPlace {
  return { url: ctx.pg.url, schema: ctx.pg.schemas.next(), maxConnections: PG_POOL_SIZE };
}
