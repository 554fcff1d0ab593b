import { describe, expect, it } from 'vitest';
import { backoffMs, publishingSettings, verdict } from '../../src/publishing';

/** The engine's error policy (docs/publishing.md) as a function of the attempt's facts. */

const settings = publishingSettings({});
const start = new Date('2026-01-01T00:00:00Z');
const facts = (attempts: number, minutesIn = 0, idempotent = false) => ({
  attempts,
  firstAttemptAt: start,
  now: new Date(start.getTime() + minutesIn * 60_000),
  idempotent,
});

describe('the error policy', () => {
  it('backs off 15 s, 1 min, 4 min, 16 min (±20 %): four retries fit in 30 minutes', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, settings, () => 0.5))).toEqual([
      15_000, 60_000, 240_000, 960_000,
    ]);
    const worst = [1, 2, 3, 4].reduce((sum, n) => sum + backoffMs(n, settings, () => 1), 0);
    expect(worst).toBeLessThan(settings.windowMs);
  });

  it('retries transient failures up to the fifth attempt, then fails retryable', () => {
    const transient = { class: 'transient' as const, message: '503' };
    expect(verdict(transient, facts(4), settings).kind).toBe('retry');
    expect(verdict(transient, facts(5), settings)).toMatchObject({
      kind: 'failed',
      error: { code: 'network_error', retryable: true },
    });
  });

  it('honours Retry-After, but never past 30 minutes after the first attempt', () => {
    const limited = (ms: number) => ({
      class: 'rate_limited' as const,
      message: '429',
      retryAfterMs: ms,
    });
    const soon = verdict(limited(90_000), facts(1, 1), settings);
    expect(soon).toMatchObject({ kind: 'retry', at: new Date(start.getTime() + 150_000) });
    expect(verdict(limited(30 * 60_000), facts(1, 1), settings)).toMatchObject({
      kind: 'failed',
      error: { code: 'rate_limited' },
    });
  });

  it('unknown outcomes: retried where idempotent, else unconfirmed', () => {
    const unknown = {
      class: 'unknown_outcome' as const,
      message: '127.0.0.1:40357: UND_ERR_SOCKET',
    };
    expect(verdict(unknown, facts(1, 0, true), settings).kind).toBe('retry');
    const unconfirmed = verdict(unknown, facts(1, 0, false), settings);
    // Retry leaves it alone (only resolving moves it on), so it is not retryable; the socket's
    // address and code are the worker's log's, not the account's (docs/security.md, Input).
    expect(unconfirmed).toMatchObject({
      kind: 'unconfirmed',
      error: { code: 'unconfirmed', retryable: false },
    });
    expect(JSON.stringify(unconfirmed)).not.toMatch(/127\.0\.0\.1|UND_ERR|40357/);
  });

  it('revoked asks for a reconnect; rejected fails with the message, not retryable', () => {
    expect(verdict({ class: 'revoked', message: 'gone' }, facts(1), settings)).toMatchObject({
      kind: 'failed',
      reconnect: true,
      error: { code: 'reconnect_required' },
    });
    expect(verdict({ class: 'rejected', message: 'Too long' }, facts(1), settings)).toEqual({
      kind: 'failed',
      error: { code: 'rejected', message: 'Too long', retryable: false },
    });
  });
});
