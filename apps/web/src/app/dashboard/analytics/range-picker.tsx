import Link from 'next/link';
import { PRESETS, type Preset } from './range';

type Props = {
  /** The page the picker reloads with the range in its query. */
  path: string;
  from: string;
  to: string;
  preset?: Preset;
  /** The procedure's refusal of a custom range, shown beside the fields. */
  error?: string;
};

/** Presets of 7, 30 and 90 days ending today, or custom UTC days (both included). */
export function RangePicker({ path, from, to, preset, error }: Props) {
  return (
    <div className="range">
      <nav aria-label="Date range presets" className="presets">
        {PRESETS.map((days) => (
          <Link
            key={days}
            href={`${path}?days=${days}`}
            aria-current={preset === days ? 'true' : undefined}
          >
            Last {days} days
          </Link>
        ))}
      </nav>
      <form className="filters" action={path} aria-label="Custom date range">
        <div className="field">
          <label htmlFor="range-from">From</label>
          <input
            id="range-from"
            name="from"
            type="date"
            required
            defaultValue={from}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'range-error' : 'range-hint'}
          />
        </div>
        <div className="field">
          <label htmlFor="range-to">To</label>
          <input
            id="range-to"
            name="to"
            type="date"
            required
            defaultValue={to}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'range-error' : 'range-hint'}
          />
        </div>
        <button type="submit">Apply</button>
        <small id="range-hint" className="muted">
          Days in UTC, both included; at most 366.
        </small>
      </form>
      {error && (
        <p id="range-error" className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
