// The schema the migrations are generated against (drizzle-kit needs one; itself a valid store schema name) and swapping the configured one in.

export const MIGRATION_SCHEMA_PLACEHOLDER = '__session_state__';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;
const QUALIFIER = `"${MIGRATION_SCHEMA_PLACEHOLDER}".`;

/**
 * A generated migration's SQL in `schemaName` (each placeholder qualifier swapped); throws on a name needing quotes or another use of the placeholder.
 * @example inSchema('CREATE TABLE "__session_state__"."heads" (…)', 'gateway') // 'CREATE TABLE "gateway"."heads" (…)'
 */
export function inSchema(sql: string, schemaName: string): string {
  if (!SCHEMA_NAME.test(schemaName)) throw new Error(`migrate: the schema name must match ${SCHEMA_NAME.source}, got ${JSON.stringify(schemaName)}`);
  const rest = sql.split(QUALIFIER);
  if (rest.some((part) => part.includes(MIGRATION_SCHEMA_PLACEHOLDER))) throw new Error(`migrate: a migration names the placeholder schema ${MIGRATION_SCHEMA_PLACEHOLDER} other than as a qualifier`);
  return rest.join(`"${schemaName}".`);
}
