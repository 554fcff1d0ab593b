import type { AppRouter } from '@chorus/api';
import { createTRPCClient, httpBatchLink, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import { ChorusApiError } from './error';

export { ChorusApiError, type ChorusErrorBody } from './error';
// Type-only: consumers get the procedures' types without the server in their bundle.
export type { AppRouter };

export interface ChorusClientOptions {
  /** The Chorus origin, e.g. `https://chorus.example.com` (the client calls `/api/trpc`). */
  url: string;
  /** An API key (`chorus_…`) or an OAuth access token, sent as `Authorization: Bearer`. */
  token: string;
  /** Another fetch (tests, proxies); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/** Every failure leaves the client as a ChorusApiError, whatever link produced it. */
const chorusErrors: TRPCLink<AppRouter> =
  () =>
  ({ op, next }) =>
    observable((observer) =>
      next(op).subscribe({
        next: (value) => observer.next(value),
        error: (error) => observer.error(ChorusApiError.fromTrpc(error)),
        complete: () => observer.complete(),
      }),
    );

/** A typed client of the procedures internal apps may call (the tRPC door, `/api/trpc`). */
export function createChorusClient({ url, token, fetch }: ChorusClientOptions) {
  return createTRPCClient<AppRouter>({
    links: [
      chorusErrors,
      httpBatchLink({
        url: new URL('/api/trpc', url).toString(),
        headers: { authorization: `Bearer ${token}` },
        ...(fetch && { fetch }),
      }),
    ],
  });
}

export type ChorusClient = ReturnType<typeof createChorusClient>;
