export * from './provider';
export * from './http';
export * from './failure';
export * from './providers';
export * from './settle';
export * from './credentials';
export * from './engine';
export * from './channels';
export * from './discover';
export * from './validate';
export * from './start';
export * from './retry';
export {
  getChannelSlots,
  nextFreeSlot,
  previewNextSlot,
  putChannelSlots,
  slotInstants,
} from './slots';
