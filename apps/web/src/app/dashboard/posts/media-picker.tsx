import type { Media } from '@chorus/validators';
import Link from 'next/link';
import { useId } from 'react';

const KINDS: Record<string, string> = { 'video/mp4': 'Video', 'application/pdf': 'PDF' };

/** An image's thumbnail (served to the signed-in browser by the API), or the file's kind. */
function Preview({ item }: { item: Media }) {
  if (item.mimeType.startsWith('image/')) {
    // The filename beside it names the file: the thumbnail itself adds nothing to hear.
    return <img src={item.url} alt="" width={48} height={48} loading="lazy" className="thumb" />;
  }
  return <span className="thumb file-kind">{KINDS[item.mimeType] ?? 'File'}</span>;
}

type PickerProps = {
  media: Media[];
  checked: string[];
  more: boolean;
  error?: string;
  /** Told the checked ids, in the library's order, whenever one is checked or unchecked. */
  onChange?: (ids: string[]) => void;
  /** The checkboxes' name (`mediaIds`, the post's own) and the group's legend. */
  name?: string;
  legend?: string;
};

/** The account's media as checkboxes, each submitted as `mediaIds`, in the library's order. */
export function MediaPicker(props: PickerProps) {
  const { media, checked, more, error, onChange, name = 'mediaIds', legend = 'Media' } = props;
  const id = useId();
  return (
    <fieldset
      aria-describedby={error ? `${id}-error` : undefined}
      onChange={(event) => {
        const boxes = event.currentTarget.querySelectorAll<HTMLInputElement>(
          `input[name="${name}"]:checked`,
        );
        onChange?.([...boxes].map((box) => box.value));
      }}
    >
      <legend>{legend}</legend>
      {media.length === 0 ? (
        <p className="muted small">
          No media yet: upload files in the <Link href="/dashboard/media">media library</Link>.
        </p>
      ) : (
        <ul className="media-picker">
          {media.map((item) => (
            <li key={item.id}>
              <label className="check">
                <input
                  type="checkbox"
                  name={name}
                  value={item.id}
                  defaultChecked={checked.includes(item.id)}
                />
                <Preview item={item} />
                <span className="filename">{item.filename}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {more && <p className="muted small">The newest 100 files and those attached are listed.</p>}
      {error && (
        <small id={`${id}-error`} className="error">
          {error}
        </small>
      )}
    </fieldset>
  );
}
