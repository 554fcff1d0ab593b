-- A Mastodon channel's external id becomes `<account id>@<instance domain>`, as discovery now names
-- it (docs/publishing.md, Channels): an account id is unique only on its instance, so two instances'
-- accounts of the same id were one channel. The domain is the one in the channel's handle
-- (`@user@domain`), which discovery took from the same place, so the next rediscovery finds the
-- channel under its new name and keeps its id. Account ids hold no `@`: a row with one is already in
-- the new form and stays as it is.
UPDATE "channels"
SET "external_id" = "external_id" || '@' || lower(substring("handle" from '^@[^@]+@([^@]+)$'))
WHERE "integration_id" = 'mastodon'
  AND "external_id" NOT LIKE '%@%'
  AND "handle" ~ '^@[^@]+@[^@]+$';
--> statement-breakpoint
-- A retired Mastodon channel kept no handle: nothing says which instance its account was on, and
-- under its old name no discovery would ever match it again (it would only take up the key).
DELETE FROM "retired_channels"
WHERE "integration_id" = 'mastodon'
  AND "external_id" NOT LIKE '%@%';
