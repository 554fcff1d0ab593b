import { log } from './logger';

/**
 * One line per request, written by the pipeline (server/pipeline.ts) whichever door answered
 * it: the request id the answer carries, so a caller's report can be found in the logs
 * (docs/api.md).
 */
export function logRequest(
  req: Request,
  path: string,
  requestId: string,
  status: number,
  started: number,
) {
  log('info', 'request', {
    requestId,
    method: req.method,
    path,
    status,
    ms: Math.round(performance.now() - started),
  });
}
