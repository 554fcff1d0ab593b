-- A deleted medium's id stays on the posts that use it, as a target's mediaIds keep theirs
-- (docs/media.md, Deleting): a post is refused, or its targets fail media_unavailable, rather
-- than going out without the image. The links went with the medium (ON DELETE CASCADE) before.
ALTER TABLE "post_media" DROP CONSTRAINT "post_media_media_id_media_id_fk";
