export { listPosts } from './list';
export { publishDuePosts } from './publish';
export { getPost } from './records';
export { deletePost } from './remove';
export { POST_TRANSITIONS, statusChangesOf } from './transitions';
export { createPost, updatePost, validatePost } from './write';
export { replaceTargets } from './targets';
export { approvePost, rejectPost, submitPost } from './approval';
export { listPostActivity } from './activity';
