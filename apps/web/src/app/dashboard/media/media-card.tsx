import type { Media } from '@chorus/validators';
import { ConfirmAction } from '~/components/confirm-action';
import { count, fileSize } from '~/components/format';
import { deleteMediaItem } from './actions';
import { AltTextDialog } from './alt-text-dialog';
import { MediaIcon } from './media-icon';
import { bytesPath, kindOf, typeLabel } from './media-kind';

/** One item of the library: its preview, what it is, and (for those who may) its controls. */
export function MediaCard({ item, canEdit }: { item: Media; canEdit: boolean }) {
  const kind = kindOf(item.mimeType);
  const size = item.width && item.height ? ` · ${count(item.width)}×${count(item.height)} px` : '';
  return (
    <article className="media-card">
      <div className="media-preview">
        {kind === 'image' ? (
          // Alt text when the item has one; else the image is described by the file name below.
          <img
            src={bytesPath(item)}
            alt={item.altText ?? ''}
            width={item.width ?? undefined}
            height={item.height ?? undefined}
            loading="lazy"
            decoding="async"
          />
        ) : (
          <MediaIcon kind={kind} />
        )}
      </div>
      <div className="media-body">
        <h3>
          <a href={bytesPath(item)}>{item.filename}</a>
        </h3>
        <p className="muted small">
          {typeLabel(item.mimeType)} · {fileSize(item.size)}
          {size}
        </p>
        {item.altText ? (
          <p className="small alt-text">
            <span className="muted">Alt text:</span> {item.altText}
          </p>
        ) : (
          <p className="muted small">No alt text</p>
        )}
        {canEdit && (
          <div className="actions">
            <AltTextDialog item={item} />
            <ConfirmAction
              button="Delete"
              label={`Delete ${item.filename}`}
              title={`Delete ${item.filename}?`}
              description={`${item.filename} and its file are deleted. Posts that use it keep naming it and are not sent until it is taken out of them. This cannot be undone.`}
              confirm="Delete file"
              action={deleteMediaItem}
              values={{ id: item.id, filename: item.filename }}
            />
          </div>
        )}
      </div>
    </article>
  );
}
