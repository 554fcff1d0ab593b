/** Shown while a posts page (the list, a post, the calendar) loads its data. */
export default function Loading() {
  return (
    <div className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      Loading posts…
    </div>
  );
}
