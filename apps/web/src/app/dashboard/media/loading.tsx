/** Shown while the library loads. */
export default function Loading() {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      Loading media…
    </div>
  );
}
