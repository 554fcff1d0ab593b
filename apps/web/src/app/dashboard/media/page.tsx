import type { Metadata } from 'next';
import { maxUploadBytesFromEnv } from '@chorus/api';
import { EmptyState, PastLastPage } from '~/components/empty-state';
import { envelopePage, Pagination } from '~/components/pagination';
import { mayCall } from '~/server/may-call';
import { dashboardCaller, requirePrincipal } from '~/server/dashboard';
import { parseSearch, searchField, type SearchParams } from '~/server/search-params';
import { MediaCard } from './media-card';
import { Uploader } from './uploader';
import './media.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Media' };

const PATH = '/dashboard/media';
const PER_PAGE = 24;

export default async function MediaPage(props: { searchParams: Promise<SearchParams> }) {
  const { page } = parseSearch(await props.searchParams, { page: searchField.page });
  const me = await requirePrincipal(PATH);
  const caller = await dashboardCaller(PATH);
  const list = await caller.media.list({ page, limit: PER_PAGE });
  const { pagination } = list.meta;
  // Alt text and deleting follow media.update's rule, as declared by the API; the upload
  // route declares the same (content:write, no role).
  const canEdit = mayCall(me, 'media.update');
  return (
    <>
      <div className="page-head">
        <div>
          <h1>Media</h1>
          <p className="lead">The images, videos and PDFs this account&apos;s posts can use.</p>
        </div>
      </div>
      {canEdit && <Uploader maxBytes={maxUploadBytesFromEnv()} />}
      <section className="panel" aria-labelledby="library-heading">
        <h2 id="library-heading">Library</h2>
        {list.data.length > 0 ? (
          <ul className="media-grid" aria-label="Media">
            {list.data.map((item) => (
              <li key={item.id}>
                <MediaCard item={item} canEdit={canEdit} />
              </li>
            ))}
          </ul>
        ) : pagination.total > 0 ? (
          <PastLastPage pages={pagination.totalPages} href={PATH} />
        ) : (
          <EmptyState title="No media yet">
            {canEdit ? 'Upload an image, a video or a PDF above.' : 'Nothing has been uploaded.'}
          </EmptyState>
        )}
        <Pagination at={envelopePage(pagination)} href={(p) => `${PATH}?page=${p}`} />
      </section>
    </>
  );
}
