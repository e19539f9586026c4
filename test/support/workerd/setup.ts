import { applyD1Migrations, env } from 'cloudflare:test'

// Every test file starts from the schema in migrations/, as production does.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
