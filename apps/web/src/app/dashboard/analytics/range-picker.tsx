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

/** One end of the custom range: a UTC day, described by the hint or by the refusal. */
function DayField(props: { name: string; label: string; value: string; error?: string }) {
  return (
    <div className="field">
      <label htmlFor={`range-${props.name}`}>{props.label}</label>
      <input
        id={`range-${props.name}`}
        name={props.name}
        type="date"
        required
        defaultValue={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? 'range-error' : 'range-hint'}
      />
    </div>
  );
}

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
        <DayField name="from" label="From" value={from} error={error} />
        <DayField name="to" label="To" value={to} error={error} />
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
