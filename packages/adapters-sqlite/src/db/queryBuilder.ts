// drizzle as a query builder only, whichever driver runs the store: the statements are built
// with it and rendered to SQL text ahead of time (sql/render.ts), never executed through drizzle.
import { schema } from '../schema.js';
import { sqliteProxy } from './drizzle.js';

const { drizzle } = sqliteProxy;

/** The one builder: it holds no connection. */
export const queryBuilder = drizzle(
  () => Promise.reject(new Error('the store runs its statements rendered ahead of time; drizzle never runs them')),
  { schema },
);
