export { MEDIA_TYPES } from '@chorus/validators';
export { tooLarge, type MediaType } from './inspect';
export { getMedia, listMedia, toMedia, updateMedia } from './records';
export {
  cleanFilename,
  commitUpload,
  discardUpload,
  stageUpload,
  type StagedUpload,
} from './upload';
export { deleteMedia, findMediaContent, type MediaContent } from './remove';
export {
  findSharedMedia,
  SHARED_LINK_SECONDS,
  sharedMediaUrl,
  verifySharedLink,
} from './shared-link';
