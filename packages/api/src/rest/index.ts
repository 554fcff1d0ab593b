export { createRestDoor, createRestHandler, type RestHandlerOptions } from './handler';
