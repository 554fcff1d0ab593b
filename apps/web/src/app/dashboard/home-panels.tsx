import type { Post, PostStatus, Webhook } from '@chorus/validators';
import Link from 'next/link';
import { count } from '~/components/format';
import { ZoneNote, ZoneTime } from '~/components/zone-time';
import { WebhookState } from './webhooks/webhook-state';

/** A figure of the home page; `href` where a page says more. */
export type Summary = { label: string; value: string; detail: string; href?: string };

export function SummaryCards({ summaries }: { summaries: Summary[] }) {
  return (
    <ul className="stats" aria-label="Summary">
      {summaries.map((s) => {
        const body = (
          <>
            <span className="muted">{s.label}</span>
            <strong>{s.value}</strong>
            <span className="muted small">{s.detail}</span>
          </>
        );
        return (
          <li key={s.label}>
            {s.href ? (
              <Link href={s.href} className="card stat">
                {body}
              </Link>
            ) : (
              <div className="card stat">{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

const STATUS_LABELS: Record<PostStatus, string> = {
  draft: 'Drafts',
  pending_approval: 'Awaiting approval',
  scheduled: 'Scheduled',
  publishing: 'Publishing',
  published: 'Published',
  failed: 'Failed',
  archived: 'Archived',
};

type PostsProps = {
  byStatus: { status: PostStatus; total: number }[];
  next: Post[];
  /** The account's time zone, in which the posts pages show times. */
  zone: string;
};

/** Posts by status, and the next ones the scheduler sends, on the account's clock. */
export function PostsPanel({ byStatus, next, zone }: PostsProps) {
  return (
    <section className="panel" aria-labelledby="home-posts">
      <h2 id="home-posts">Posts</h2>
      <dl className="facts">
        {byStatus.map((s) => (
          <div key={s.status} className="contents">
            <dt>{STATUS_LABELS[s.status]}</dt>
            <dd>{count(s.total)}</dd>
          </div>
        ))}
      </dl>
      <h3>Next scheduled</h3>
      {next.length === 0 ? (
        <p className="muted">Nothing scheduled.</p>
      ) : (
        <>
          <ol className="plain" aria-label="Next scheduled posts">
            {next.map((post) => (
              <li key={post.id}>
                <Link href={`/dashboard/posts/${post.id}`}>{post.title}</Link>
                {post.scheduledAt && (
                  <span className="muted small">
                    {' '}
                    · <ZoneTime iso={post.scheduledAt} zone={zone} />
                  </span>
                )}
              </li>
            ))}
          </ol>
          <p className="muted small">
            <ZoneNote zone={zone} />
          </p>
        </>
      )}
    </section>
  );
}

/** Webhooks turned off (by the service after failures, or by an admin). */
export function AttentionPanel({ disabled }: { disabled: Webhook[] }) {
  return (
    <section className="panel" aria-labelledby="home-webhooks">
      <h2 id="home-webhooks">Disabled webhooks</h2>
      {disabled.length === 0 ? (
        <p className="muted">Every webhook is active.</p>
      ) : (
        <ul className="plain">
          {disabled.map((hook) => (
            <li key={hook.id} className="url">
              <Link href={`/dashboard/webhooks/${hook.id}`}>{hook.url}</Link>{' '}
              <WebhookState webhook={hook} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type PlatformsProps = {
  connected: { integrationId: string; meta: { accountName?: string | null } }[];
  names: Map<string, string>;
};

export function PlatformsPanel({ connected, names }: PlatformsProps) {
  return (
    <section className="panel">
      <h2>Platforms</h2>
      {connected.length === 0 ? (
        <p className="muted">
          None connected. <Link href="/dashboard/integrations">Connect a platform</Link>.
        </p>
      ) : (
        <ul className="plain">
          {connected.map((c) => (
            <li key={c.integrationId}>
              {names.get(c.integrationId) ?? c.integrationId}
              {c.meta.accountName && <span className="muted"> · {c.meta.accountName}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
