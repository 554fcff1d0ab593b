import { randomBytes } from 'node:crypto';
import type { Answer } from './faults';

/**
 * The shapes Meta's Graph hosts share: a request's parameters, an answer, and the error object
 * `{ error: { message, type, code, error_subcode, is_transient, fbtrace_id } }`
 * (https://developers.facebook.com/docs/graph-api/guides/error-handling).
 */

export type GraphParams = Map<string, string | File>;

export interface GraphRequest {
  method: string;
  /** The path without its version prefix: `/v21.0/123/feed` is `['123', 'feed']`. */
  segments: string[];
  params: GraphParams;
  token: string | undefined;
}

/** What a Graph route answers: 200 unless it says otherwise. */
export type GraphAnswer = Omit<Answer, 'status'> & { status?: number };

export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly extra: {
      subcode?: number;
      type?: string;
      userTitle?: string;
      userMessage?: string;
      transient?: boolean;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
  }

  answer(): Answer {
    const { subcode, type, userTitle, userMessage, transient, headers } = this.extra;
    return {
      status: this.status,
      headers,
      body: {
        error: {
          message: this.message,
          type: type ?? 'OAuthException',
          code: this.code,
          ...(subcode === undefined ? {} : { error_subcode: subcode }),
          is_transient: transient ?? false,
          ...(userTitle ? { error_user_title: userTitle } : {}),
          ...(userMessage ? { error_user_msg: userMessage } : {}),
          fbtrace_id: randomBytes(8).toString('base64url'),
        },
      },
    };
  }
}

/** `(#100) …` errors: a parameter is missing or wrong. */
export const invalidParameter = (message: string, subcode?: number) =>
  new GraphError(400, 100, message, { subcode });

export const missingObject = (id: string) =>
  new GraphError(
    400,
    100,
    `Unsupported request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    { subcode: 33, type: 'GraphMethodException' },
  );

/** A Graph-looking numeric id. */
export const graphId = () =>
  (BigInt(`0x${randomBytes(7).toString('hex')}`) + 10n ** 16n).toString();

export const text = (params: GraphParams, name: string) => {
  const value = params.get(name);
  return typeof value === 'string' ? value : undefined;
};

export const required = (params: GraphParams, name: string) => {
  const value = text(params, name);
  if (value === undefined || value === '') {
    throw invalidParameter(`(#100) The parameter ${name} is required`);
  }
  return value;
};

/**
 * Figures a test sets for posts (`setInsights`), answered as Meta's insights: one entry per
 * requested metric, refusing metrics the network does not have.
 */
export function insightsBook(allowed: readonly string[]) {
  const figures = new Map<string, Record<string, number>>();
  return {
    figures: (id: string) => figures.get(id) ?? {},
    answer(id: string, params: GraphParams) {
      const metrics = (text(params, 'metric') ?? '').split(',').filter(Boolean);
      const unknown = metrics.find((metric) => !allowed.includes(metric));
      if (metrics.length === 0 || unknown !== undefined) {
        throw invalidParameter(
          `(#100) metric[${Math.max(0, metrics.indexOf(unknown ?? ''))}] must be one of the following values: ${allowed.join(', ')}`,
        );
      }
      const values = figures.get(id) ?? {};
      return {
        data: metrics.map((name) => ({
          name,
          period: 'lifetime',
          values: [{ value: values[name] ?? 0 }],
          title: name,
          id: `${id}/insights/${name}/lifetime`,
        })),
      };
    },
    switches: {
      setInsights: (id: string, values: Record<string, number>) => void figures.set(id, values),
    },
  };
}
