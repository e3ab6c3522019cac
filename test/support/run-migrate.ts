/**
 * `node --import tsx test/support/run-migrate.ts <url> [schema]`: migrates one database and prints
 * the applied migration names as JSON. Tests start several at once to check that separate
 * processes can migrate the same database concurrently (SQLite locks are per connection, and a
 * single process would block on itself).
 */
import { createDatabase } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";

const [url, schema] = process.argv.slice(2);
if (url === undefined) throw new Error("usage: run-migrate.ts <url> [schema]");
const database = createDatabase({ url, ...(schema === undefined ? {} : { schema }) });
try {
  process.stdout.write(JSON.stringify(await migrateToLatest(database)));
} finally {
  await database.destroy();
}
