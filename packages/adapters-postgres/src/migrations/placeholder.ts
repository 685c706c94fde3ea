// The schema name the migrations are generated against (drizzle-kit needs a concrete one), and
// putting the configured schema in its place.

/** Valid as a store schema name too ([a-z_][a-z0-9_]*), so a store configured with it still works. */
export const MIGRATION_SCHEMA_PLACEHOLDER = '__session_state__';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;
const QUALIFIER = `"${MIGRATION_SCHEMA_PLACEHOLDER}".`;

/**
 * A generated migration's SQL in `schemaName`: drizzle-kit quotes and qualifies every name it
 * renders ("__session_state__"."events"), so each qualifier is swapped for the configured schema's
 * and nothing is left naming the placeholder. Throws on a name that would need quoting (the store's
 * options allow none) or SQL that names the placeholder other than as a qualifier.
 *
 * @example inSchema('CREATE TABLE "__session_state__"."heads" (…)', 'gateway') // 'CREATE TABLE "gateway"."heads" (…)'
 */
export function inSchema(sql: string, schemaName: string): string {
  if (!SCHEMA_NAME.test(schemaName)) throw new Error(`migrate: the schema name must match ${SCHEMA_NAME.source}, got ${JSON.stringify(schemaName)}`);
  const rest = sql.split(QUALIFIER);
  if (rest.some((part) => part.includes(MIGRATION_SCHEMA_PLACEHOLDER))) {
    throw new Error(`migrate: a migration names the placeholder schema ${MIGRATION_SCHEMA_PLACEHOLDER} other than as a qualifier`);
  }
  return rest.join(`"${schemaName}".`);
}
