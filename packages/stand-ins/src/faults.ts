import type { IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { sendJson, type Route } from './http-kit';

/** What a stand-in's route decides: written by `answering`, or withheld by a fault. */
export interface Answer {
  status: number;
  /** JSON-encoded; absent for an empty body (a 204, a redirect). */
  body?: unknown;
  headers?: Record<string, string>;
}

export type AnswerRoute = (req: IncomingMessage, body: Buffer) => Answer | Promise<Answer>;

/** A fault a stand-in plays instead of, or around, its normal answer. */
export type Fault =
  /** Answer this without acting on the request (a 429, a 503, a rejection). */
  | { kind: 'answer'; answer: Answer }
  /** Act on the request, then close the connection without answering: the unknown outcome. */
  | { kind: 'drop' }
  /** Act on the request and answer after `ms` milliseconds: a slow network. */
  | { kind: 'slow'; ms: number };

export interface FaultMatch {
  /** How many matching requests get the fault (default 1). */
  times?: number;
  /** How many matching requests pass untouched first (default 0). */
  after?: number;
  method?: string;
  /** The path without its query string, exact or as a pattern. */
  path?: string | RegExp;
}

/** Faults a test switches on; each matching request uses one up. */
export class FaultSwitches {
  private rules: (FaultMatch & { fault: Fault; skip: number; left: number })[] = [];

  inject(fault: Fault, match: FaultMatch = {}): void {
    this.rules.push({ ...match, fault, skip: match.after ?? 0, left: match.times ?? 1 });
  }

  clear(): void {
    this.rules = [];
  }

  /** The fault for this request, if one is switched on for it. */
  take(method: string, path: string): Fault | undefined {
    const rule = this.rules.find(
      (candidate) =>
        candidate.left > 0 &&
        (!candidate.method || candidate.method === method) &&
        (candidate.path === undefined ||
          (typeof candidate.path === 'string'
            ? candidate.path === path
            : candidate.path.test(path))),
    );
    if (!rule) return undefined;
    if (rule.skip > 0) {
      rule.skip--;
      return undefined;
    }
    rule.left--;
    return rule.fault;
  }
}

export const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?')[0] ?? '/';

/** Runs `route` under the switched-on faults and writes its answer. */
export function answering(faults: FaultSwitches, route: AnswerRoute): Route {
  return async (req, res, body) => {
    const fault = faults.take(req.method ?? 'GET', pathOf(req));
    const answer = fault?.kind === 'answer' ? fault.answer : await route(req, body);
    if (fault?.kind === 'drop') {
      res.destroy();
      return;
    }
    if (fault?.kind === 'slow') await sleep(fault.ms);
    if (answer.body === undefined) {
      res.writeHead(answer.status, answer.headers);
      res.end();
    } else {
      sendJson(res, answer.status, answer.body, answer.headers);
    }
  };
}
