-- A blank first comment (empty, or white space only) is refused from now on (docs/publishing.md,
-- Targets): the networks refused one, or posted an empty reply, once the post itself was out. One
-- stored before becomes what a client now sends for no comment, `null`, so the post answers it
-- and takes it back in a `PUT` (a locked target's included, which must be sent back as answered).
-- The class is JavaScript's `trim()` white space, spelled out rather than left to a locale.
UPDATE "post_targets"
SET "first_comment" = NULL
WHERE "first_comment" ~ '^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*$';
