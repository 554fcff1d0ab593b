-- How many times what a target sends has changed (docs/publishing.md, Targets): the networks'
-- idempotency keys derive from the target's id and this, so a new text gets new keys. Targets
-- already stored start at 0, whose keys are the ones they had before.
ALTER TABLE "post_targets" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;
