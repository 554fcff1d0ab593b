import { MEDIA_HANDLER_ROUTES } from '../media/routes';
import { POSTS_IO_HANDLER_ROUTES } from '../posts-io/routes';
import { appRouter } from '../trpc/root';
import { routeTable } from './routes';

/** Every REST route: the fetch handlers', then the procedures'. Routing and docs read this. */
export const restRoutes = routeTable(appRouter, [
  ...MEDIA_HANDLER_ROUTES,
  ...POSTS_IO_HANDLER_ROUTES,
]);
