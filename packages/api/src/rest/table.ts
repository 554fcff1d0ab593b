import { MEDIA_HANDLER_ROUTES } from '../media/routes';
import { appRouter } from '../root';
import { routeTable } from './routes';

/** Every REST route: the procedures', then the fetch handlers'. Routing and docs read this. */
export const restRoutes = routeTable(appRouter, MEDIA_HANDLER_ROUTES);
