import { design } from './design';
import { social } from './social';
import { storage } from './storage';
import type { CatalogueEntry } from './types';

export type { ApiKeyEntry, CatalogueEntry, JsonPath, OAuthEntry } from './types';

/** The integrations the product ships with (docs/integrations.md), in display order. */
export const CATALOGUE: readonly CatalogueEntry[] = [...social, ...design, ...storage];

const byId = new Map(CATALOGUE.map((entry) => [entry.id, entry]));

export const findEntry = (id: string): CatalogueEntry | undefined => byId.get(id);
