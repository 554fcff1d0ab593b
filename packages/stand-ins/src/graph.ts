import type { IncomingMessage } from 'node:http';
import { answering, FaultSwitches, type Answer, type Fault } from './faults';
import {
  GraphError,
  invalidParameter,
  text,
  type GraphAnswer,
  type GraphRequest,
  type GraphParams,
} from './graph-kit';
import { startStandIn, type StandIn } from './http-kit';
import { readParams } from './params';

export * from './graph-kit';

/**
 * What Meta's three Graph hosts share (graph.facebook.com, graph.instagram.com,
 * graph.threads.net): versioned paths, parameters in the query, a form, JSON or multipart, the
 * access token as `access_token` or an `Authorization` header, Meta's error object and usage
 * header, and the fault switches every stand-in has.
 */

/** The request's parameters: the query's, then the body's whatever its encoding. */
async function graphParams(req: IncomingMessage, body: Buffer, url: URL): Promise<GraphParams> {
  const read = await readParams(req, body);
  if (!read) throw invalidParameter('(#100) The request body could not be read');
  const params: GraphParams = new Map(url.searchParams);
  for (const [key, value] of Object.entries(read)) {
    params.set(
      key,
      typeof value === 'string' || value instanceof File ? value : JSON.stringify(value),
    );
  }
  return params;
}

function bearer(req: IncomingMessage, params: GraphParams): string | undefined {
  const header = req.headers.authorization;
  const match = header ? /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? text(params, 'access_token');
}

export interface GraphStandIn extends StandIn {
  /**
   * The fault switches every stand-in has (see the README); `graphFaults` and each network's
   * own builders (`facebookFaults`…) make Meta's answers.
   */
  faults: FaultSwitches;
}

/** Meta's answers for the fault switches, the same on every Graph host. */
export const graphFaults = {
  /** Meta's "temporary issue" (code 2, HTTP 500, `is_transient`). */
  unavailable: (): Fault => ({
    kind: 'answer',
    answer: new GraphError(500, 2, 'Service temporarily unavailable', { transient: true }).answer(),
  }),
  /** A refusal: `(#100) Invalid parameter`, or the error given. */
  rejected: (error = invalidParameter('(#100) Invalid parameter')): Fault => ({
    kind: 'answer',
    answer: error.answer(),
  }),
};

/**
 * A Graph host on loopback: hands each request, its parameters and token to `handle`, turns a
 * thrown `GraphError` into Meta's error object, adds Meta's usage header, and plays the faults
 * tests switch on.
 */
export async function startGraphStandIn(
  handle: (req: GraphRequest) => GraphAnswer | Promise<GraphAnswer>,
): Promise<GraphStandIn> {
  const faults = new FaultSwitches();
  let calls = 0;
  const standIn = await startStandIn(
    answering(faults, async (req, body): Promise<Answer> => {
      calls++;
      const url = new URL(req.url ?? '/', 'http://stand-in');
      let answer: GraphAnswer;
      try {
        const params = await graphParams(req, body, url);
        answer = await handle({
          method: req.method ?? 'GET',
          segments: url.pathname
            .replace(/^\/v\d+\.\d+(?=\/)/, '')
            .split('/')
            .filter(Boolean),
          params,
          token: bearer(req, params),
        });
      } catch (error) {
        if (error instanceof SyntaxError) answer = invalidParameter('(#100) Invalid JSON').answer();
        else if (error instanceof GraphError) answer = error.answer();
        else throw error;
      }
      return {
        status: answer.status ?? 200,
        body: answer.body,
        headers: {
          // Usage as a percentage of the app's hourly allowance (Meta's X-App-Usage header).
          'x-app-usage': JSON.stringify({
            call_count: Math.min(99, Math.floor(calls / 50)),
            total_cputime: 0,
            total_time: 0,
          }),
          ...answer.headers,
        },
      };
    }),
  );
  return { ...standIn, faults };
}
