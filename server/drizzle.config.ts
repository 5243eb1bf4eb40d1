import { defineConfig } from 'drizzle-kit';

// Run from the server workspace: `npm run db:generate -w server`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './src/db/migrations',
  casing: 'snake_case',
});
