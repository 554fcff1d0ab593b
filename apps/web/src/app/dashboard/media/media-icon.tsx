/**
 * What stands in for a file the page does not preview (a video, a PDF). Decorative: the card
 * names the file and its type in text beside it.
 */
export function MediaIcon({ kind }: { kind: 'video' | 'pdf' }) {
  return (
    <svg viewBox="0 0 48 48" aria-hidden="true" focusable="false" className="media-icon">
      {kind === 'video' ? (
        <>
          <rect
            x="4"
            y="10"
            width="40"
            height="28"
            rx="4"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
          />
          <path d="M20 17v14l12-7z" fill="currentColor" />
        </>
      ) : (
        <>
          <path
            d="M12 4h17l9 9v31H12z M29 4v9h9"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
            strokeLinejoin="round"
          />
          <text
            x="25"
            y="34"
            textAnchor="middle"
            fontSize="10"
            fontWeight="700"
            fill="currentColor"
          >
            PDF
          </text>
        </>
      )}
    </svg>
  );
}
