import { databaseSuite } from '@chorus/vitest-config/database-suite';
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: databaseSuite });
