export { createRestDoor, createRestHandler, type RestHandlerOptions } from './handler';
export { openApiDocument } from './openapi';
